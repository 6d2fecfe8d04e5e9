// The delivery worker of a server (docs/webhooks.md § Delivery): takes due deliveries from each
// organization's outbox (claimed, so that one process attempts each at a time), sends them,
// records what each attempt gave and schedules retries with exponential backoff on the
// organization's clock. A write that made deliveries wakes it at once; a sweep every `pollMs`
// finds those written by other processes (the CLI, another server) and retries that came due,
// and sends the notices of webhooks disabled for failing too long. Stopping waits for the
// attempts under way and records them; pending deliveries wait for the next start.

import type { WebhookConfig } from '../config.js';
import { Slots } from '../slots.js';
import type { SendOutcome } from './sender.js';
import { maskedUrl } from './webhook-admin.js';
import type { AttemptResult, ClaimedDelivery, DisablePolicy, Webhook, WebhookOutbox } from './webhook-types.js';

/** The settings the worker follows (config.ts WebhookConfig, docs/webhooks.md § Settings). */
export type WebhookSettings = Omit<WebhookConfig, 'allowPrivate'>;

/** Deliveries claimed at once from one organization's outbox. */
export const CLAIM_BATCH = 100;

/** How often due retries are looked for in memory (no store call): retries are due to the second at best. */
const TICK_MS = 1_000;

/** How often an organization's old deliveries are pruned at most. */
const PRUNE_EVERY_MS = 60 * 60_000;

export interface WorkerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DeliveryWorkerDeps {
  /** The outbox of an organization (opened by the record store). */
  outbox(orgId: string): Promise<WebhookOutbox>;
  /** The organizations that have had webhooks (the control plane's list): those a sweep looks at. */
  organizations(): Promise<readonly string[]>;
  /** An organization's clock (it may be moved: docs/control-api.md), milliseconds. */
  clock(orgId: string): number;
  /** Real time, milliseconds: claims' leases and the signature's timestamp. */
  realNow(): number;
  readonly sender: { send(d: ClaimedDelivery, nowSeconds: number): Promise<SendOutcome>; close(): void };
  readonly settings: WebhookSettings;
  /** Sends the notice that `webhook` was disabled to the organization's primary user; rejects when it was not sent. */
  notifyDisabled(orgId: string, webhook: Webhook): Promise<void>;
  /** Told each attempt (the control API's outbox): `atMs` when it ended (organization's clock), `startedMs` when it began (real time). */
  onAttempt?(orgId: string, delivery: ClaimedDelivery, outcome: SendOutcome, atMs: number, startedMs: number): void;
  /** Told each webhook this process disabled for failing too long (the metrics). */
  onDisabled?(orgId: string, webhook: Webhook): void;
  readonly log: WorkerLog;
}

/** A failing webhook's state in this process: its deliveries go one probe at a time (DeliveryWorker.triage). */
interface HookHealth {
  /** Probes (or a batch's attempts) failed since it was found failing. */
  failedProbes: number;
  probing: boolean;
  /** Organization's clock: no probe before. */
  nextProbeMs: number;
}

const hookKey = (orgId: string, hookId: string) => `${orgId}\0${hookId}`;

/** An attempt not made (DeliveryWorker.attempt): its delivery held, or left for its lease to end. */
const HELD = 'held';
const LAPSED = 'lapsed';

interface OrgWork {
  /** When its earliest pending delivery is due (organization's clock); null: none known. */
  nextDue: number | null;
  running: Promise<void> | null;
  /** Told of more work while running: run again. */
  again: boolean;
  prunedAt: number;
  /** The sweep under way (or the last) when it was last drained: one drained since a sweep asked for its list is not forgotten by that sweep. */
  drainedAt: number;
  /** Runs begun: a sweep's read of the next due time, begun before a run that ended meanwhile, is older than the run's. */
  runs: number;
}

/** The delay before attempt `attempts + 1`, after `attempts` failed: base × 2^(attempts−1), capped. */
export function retryDelay(settings: Pick<WebhookSettings, 'retryBaseMs' | 'retryCapMs'>, attempts: number): number {
  return Math.min(settings.retryCapMs, settings.retryBaseMs * 2 ** Math.min(attempts - 1, 40));
}

export class DeliveryWorker {
  private readonly orgs = new Map<string, OrgWork>();
  /** The process's attempts under way at once (settings.concurrency), shared by every organization's batches and probes. */
  private readonly slots: Slots;
  private closing = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private sweeping: Promise<void> | null = null;
  /** Sweeps begun. */
  private sweeps = 0;
  private readonly policy: DisablePolicy;
  /** Failing webhooks, by organization and webhook (hookKey). */
  private readonly failing = new Map<string, HookHealth>();
  /** Webhooks whose receiver answered again in a batch: their held deliveries are made due. */
  private readonly resumed = new Set<string>();
  private readonly probes = new Set<Promise<void>>();

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.policy = { failures: deps.settings.disableFailures, hours: deps.settings.disableHours };
    this.slots = new Slots(deps.settings.concurrency);
  }

  /** Starts the timers and a first sweep (deliveries a previous run left). */
  start(): void {
    this.timers.push(setInterval(() => this.tick(), TICK_MS), setInterval(() => void this.sweep(), this.deps.settings.pollMs));
    for (const t of this.timers) t.unref();
    void this.sweep();
  }

  /** Told that deliveries of the organization were committed: attempts them now. */
  nudge(orgId: string): void {
    if (this.closing) return;
    void this.drain(orgId);
  }

  /** Resolves once the sweep under way (or a new one) and every organization's run is done; for tests. */
  async idle(): Promise<void> {
    await this.sweep();
    for (;;) {
      const running = [...this.orgs.values()].map((o) => o.running).filter((r): r is Promise<void> => r !== null);
      running.push(...this.probes);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  /** How many organizations this process keeps work state for (due times, runs); for tests. */
  heldOrganizations(): number {
    return this.orgs.size;
  }

  /** How many webhooks this process holds as failing (their deliveries go one probe at a time); for tests. */
  failingWebhooks(): number {
    return this.failing.size;
  }

  /**
   * Stops taking work, waits for the attempts under way to be recorded, closes the connections. A
   * claimed attempt still waiting for its slot is not begun: its delivery is given back, due at
   * once, so that stopping waits for one time limit at most, not for a batch's every round.
   */
  async close(): Promise<void> {
    this.closing = true;
    for (const t of this.timers) clearInterval(t);
    await this.sweeping;
    await Promise.all([...this.orgs.values()].map((o) => o.running));
    await Promise.all([...this.probes]);
    this.deps.sender.close();
  }

  private work(orgId: string): OrgWork {
    let w = this.orgs.get(orgId);
    if (!w) this.orgs.set(orgId, (w = { nextDue: null, running: null, again: false, prunedAt: 0, drainedAt: 0, runs: 0 }));
    return w;
  }

  private tick(): void {
    for (const [orgId, w] of this.orgs) {
      if (w.nextDue !== null && w.running === null && w.nextDue <= this.deps.clock(orgId)) void this.drain(orgId);
    }
  }

  /** Looks at every organization that has had webhooks: work due, notices to send, old deliveries to prune. */
  private sweep(): Promise<void> {
    if (this.closing) return Promise.resolve();
    this.sweeping ??= (async () => {
      const sweep = ++this.sweeps;
      try {
        const listed = await this.deps.organizations();
        this.forgetOrganizations(new Set(listed), sweep);
        for (const orgId of listed) {
          if (this.closing) return;
          const w = this.work(orgId);
          if (w.running) continue;
          try {
            const outbox = await this.deps.outbox(orgId);
            const runs = w.runs;
            const nextDue = await outbox.nextDue();
            // A run begun meanwhile read it after this (a retry it scheduled, say): its reading stands.
            if (w.runs === runs) w.nextDue = nextDue;
            if (w.running === null && w.nextDue !== null && w.nextDue <= this.deps.clock(orgId)) void this.drain(orgId);
            await this.sendNotices(orgId, outbox);
            await this.forgetGone(orgId, outbox);
            await this.prune(orgId, w, outbox);
          } catch (err) {
            this.deps.log.error({ err, orgId }, 'webhook outbox not read; tried again at the next sweep');
          }
        }
      } catch (err) {
        this.deps.log.error({ err }, 'organizations with webhooks not listed; tried again at the next sweep');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  /** Claims and attempts the organization's due deliveries until none is left; one run per organization at a time. */
  private drain(orgId: string): Promise<void> {
    const w = this.work(orgId);
    w.drainedAt = this.sweeps;
    if (w.running) {
      w.again = true;
      return w.running;
    }
    w.runs++;
    w.running = (async () => {
      try {
        const outbox = await this.deps.outbox(orgId);
        let claimed: ClaimedDelivery[] = [];
        /** The organization's time the last claim asked for what was due by. */
        let claimedBy = 0;
        for (;;) {
          // Writes that came while the last batch was out: WEBHOOK_GATHER_MS more gathers the next ones
          // into one batch, rather than a claim, a send and a record per write (docs/webhooks.md § The worker).
          if (w.again && claimed.length > 0 && claimed.length < CLAIM_BATCH) await new Promise((resolve) => setTimeout(resolve, this.deps.settings.gatherMs));
          w.again = false;
          const dueMs = (claimedBy = this.deps.clock(orgId));
          const realMs = this.deps.realNow();
          const leaseMs = this.leaseMs();
          claimed = await outbox.claim({ dueMs, realMs, leaseMs, limit: CLAIM_BATCH });
          if (claimed.length > 0) {
            const lease = realMs + leaseMs;
            const held = new Map<string, ClaimedDelivery[]>();
            const batch = this.failing.size === 0 && claimed.every((d) => d.webhookFailures === 0) ? claimed : this.triage(orgId, outbox, claimed, held, lease);
            const results: AttemptResult[] = [];
            (await Promise.all(batch.map((d) => this.attempt(orgId, d, true, lease)))).forEach((res, i) => {
              if (res === HELD) this.hold(held, batch[i]!);
              else if (res !== LAPSED) results.push(res);
            });
            // Past the lease, another worker may have claimed them: held anew here, its claim would be undone.
            await this.postpone(orgId, outbox, this.deps.realNow() < lease ? held : new Map());
            if (results.length > 0) await this.record(orgId, outbox, results);
            if (claimed.some((d) => d.previousSecretEnded)) await this.forgetExpiredSecrets(orgId, outbox, dueMs);
            if (claimed.length === CLAIM_BATCH) w.again = true;
          }
          if (w.again && !this.closing) continue;
          w.nextDue = await outbox.nextDue();
          // Due but claimed by another worker (another process): left to the sweep rather than asked again every tick.
          // Due only since the claim (the organization's clock moved on meanwhile): the tick claims it.
          if (claimed.length === 0 && w.nextDue !== null && w.nextDue <= claimedBy) w.nextDue = null;
          // A commit told while the next due time was read finds this run still under way: it claims once more.
          if (!w.again || this.closing) break;
        }
      } catch (err) {
        // The claimed deliveries stay claimed until their lease ends, then any worker retries them.
        this.deps.log.error({ err, orgId }, 'webhook deliveries not attempted or not recorded; retried');
        w.nextDue = this.deps.clock(orgId) + this.deps.settings.retryBaseMs;
      } finally {
        w.running = null;
      }
    })();
    return w.running;
  }

  /**
   * A claim lasts past the longest its batch can take (its attempts in rounds of `concurrency`, each
   * round within the time limit) with a margin, so it ends only for a worker that stopped.
   */
  private leaseMs(): number {
    const { timeoutMs, concurrency } = this.deps.settings;
    return timeoutMs * (Math.ceil(CLAIM_BATCH / concurrency) + 1) + 5_000;
  }

  /**
   * One attempt of `d`, in a slot, under the claim's lease, which ends at `lease` (real time). Not
   * made, but HELD: when the worker began to close while it waited for its slot (its claim is
   * given back, due at once, for the next start or another server), or, in a batch (`inBatch`),
   * when its webhook was found failing meanwhile (by an attempt of the same batch). Not made, and
   * LAPSED, when its lease would end before the attempt could: the slots are the process's, shared
   * with other organizations' batches and probes, so a batch's last attempts may wait past the
   * lease, and another worker may have claimed the delivery since; it is left to the next claim.
   */
  private async attempt(orgId: string, d: ClaimedDelivery, inBatch: boolean, lease: number): Promise<AttemptResult | typeof HELD | typeof LAPSED> {
    const release = await this.slots.take();
    try {
      if (this.closing) return HELD;
      if (this.deps.realNow() + this.deps.settings.timeoutMs > lease) return LAPSED;
      // Keyed only when some webhook is failing or this attempt fails: the healthy path stays as it was.
      if (inBatch && this.failing.size > 0 && this.failing.has(hookKey(orgId, d.webhook.id))) return HELD;
      const startedMs = this.deps.realNow();
      const outcome = await this.deps.sender.send(d, Math.floor(startedMs / 1000));
      const atMs = this.deps.clock(orgId);
      if (inBatch && (!outcome.ok || this.failing.size > 0)) {
        const key = hookKey(orgId, d.webhook.id);
        if (outcome.ok) {
          if (this.failing.delete(key)) this.resumed.add(key);
        } else if (!this.failing.has(key)) {
          // Its next claim probes it at once: one failure may be this event's alone.
          this.failing.set(key, { failedProbes: 0, probing: false, nextProbeMs: atMs });
        }
      }
      const attempts = d.attempts + 1;
      const last = !outcome.ok && attempts >= this.deps.settings.maxAttempts;
      const retryAtMs = outcome.ok || last ? null : atMs + retryDelay(this.deps.settings, attempts);
      this.deps.onAttempt?.(orgId, d, outcome, atMs, startedMs);
      const result: AttemptResult = { row: d.row, id: d.id, webhookId: d.webhook.id, ok: outcome.ok, status: outcome.status, error: outcome.error, durationMs: outcome.durationMs, response: outcome.response, atMs, retryAtMs };
      if (!last) return result;
      // Its first attempt ended no later than the delays before its retries: a webhook failing since then has failed each of them.
      let firstMs = atMs;
      for (let k = 1; k < attempts; k++) firstMs -= retryDelay(this.deps.settings, k);
      return { ...result, hold: { retryAtMs: atMs + this.deps.settings.retryCapMs, failingSince: firstMs } };
    } finally {
      release();
    }
  }

  /**
   * Splits a claim: the deliveries of webhooks not failing are the batch (returned). A failing
   * webhook's wait (`held`, by webhook) but for one, its probe, attempted on its own when no probe of
   * it is under way and its backoff has passed: the one tried least, so that an event its receiver
   * refuses does not stand for a receiver that is down. A receiver that is down or hangs then holds
   * one slot, not the process's, and does not delay its organization's other webhooks.
   */
  private triage(orgId: string, outbox: WebhookOutbox, claimed: readonly ClaimedDelivery[], held: Map<string, ClaimedDelivery[]>, lease: number): ClaimedDelivery[] {
    const batch: ClaimedDelivery[] = [];
    const now = this.deps.clock(orgId);
    for (const d of claimed) {
      const key = hookKey(orgId, d.webhook.id);
      const health = this.failing.get(key);
      if (health === undefined && d.webhookFailures > 0) this.failing.set(key, { failedProbes: 0, probing: false, nextProbeMs: now });
      // The store counts no failure of it since: enabled again (which starts the count over), or
      // answered another process. Without a probe of this process's under way to decide, it is healthy.
      else if (health !== undefined && d.webhookFailures === 0 && !health.probing) this.failing.delete(key);
      if (this.failing.has(key)) this.hold(held, d);
      else batch.push(d);
    }
    for (const [hookId, deliveries] of held) {
      const health = this.failing.get(hookKey(orgId, hookId))!;
      // Further off than the backoff ever puts it: the organization's clock was moved back (the
      // control API's clock). Its next probe is now, as in a process that had not seen it failing;
      // else the events of every write would be held until the clock came back to where it was.
      if (health.nextProbeMs > now + this.deps.settings.retryCapMs) health.nextProbeMs = now;
      if (health.probing || health.nextProbeMs > now) continue;
      const probe = deliveries.reduce((least, d) => (d.attempts < least.attempts ? d : least));
      deliveries.splice(deliveries.indexOf(probe), 1);
      this.probe(orgId, outbox, probe, health, lease);
    }
    return batch;
  }

  private hold(held: Map<string, ClaimedDelivery[]>, d: ClaimedDelivery): void {
    const list = held.get(d.webhook.id);
    if (list) list.push(d);
    else held.set(d.webhook.id, [d]);
  }

  /**
   * Held deliveries wait for their webhook's next probe: past the one under way, one backoff more
   * (retryDelay of its failed probes); none under way, its next. Webhooks whose receiver answered
   * again in the batch have their deliveries made due now.
   */
  private async postpone(orgId: string, outbox: WebhookOutbox, held: ReadonlyMap<string, ClaimedDelivery[]>): Promise<void> {
    const now = this.deps.clock(orgId);
    for (const [hookId, deliveries] of held) {
      if (deliveries.length === 0) continue;
      const health = this.failing.get(hookKey(orgId, hookId));
      const until = !health ? now : health.probing ? now + retryDelay(this.deps.settings, health.failedProbes + 1) : Math.max(now, health.nextProbeMs);
      await outbox.postpone(deliveries, until);
    }
    for (const key of this.resumed) {
      const [org, hookId] = key.split('\0') as [string, string];
      if (org !== orgId) continue;
      this.resumed.delete(key);
      await outbox.resume(hookId, now);
    }
  }

  /** Attempts a failing webhook's probe on its own, records it, and resumes the webhook's deliveries when it succeeded. */
  private probe(orgId: string, outbox: WebhookOutbox, d: ClaimedDelivery, health: HookHealth, lease: number): void {
    health.probing = true;
    const run: Promise<void> = (async () => {
      try {
        const res = await this.attempt(orgId, d, false, lease);
        if (res === LAPSED) return;
        if (res === HELD) return void (await outbox.postpone([d], this.deps.clock(orgId)));
        await this.record(orgId, outbox, [res]);
        if (res.ok) {
          this.failing.delete(hookKey(orgId, d.webhook.id));
          await outbox.resume(d.webhook.id, this.deps.clock(orgId));
          this.nudge(orgId);
        } else {
          health.failedProbes++;
          health.nextProbeMs = res.atMs + retryDelay(this.deps.settings, health.failedProbes);
        }
      } catch (err) {
        // Its claim ends with its lease, and any worker tries it again.
        this.deps.log.error({ err, orgId, webhookId: d.webhook.id }, 'webhook probe not attempted or not recorded; retried');
      }
    })().finally(() => {
      health.probing = false;
      this.probes.delete(run);
    });
    this.probes.add(run);
  }

  /** Records a batch's attempts; logs and sends the notices of the webhooks they disabled. */
  private async record(orgId: string, outbox: WebhookOutbox, results: readonly AttemptResult[]): Promise<void> {
    const disabled = await outbox.finish(results, this.policy);
    for (const hook of disabled) {
      this.failing.delete(hookKey(orgId, hook.id));
      this.deps.log.warn({ orgId, webhookId: hook.id, url: maskedUrl(hook.url), failures: hook.failures }, 'webhook disabled: its deliveries failed for too long');
      this.deps.onDisabled?.(orgId, hook);
    }
    if (disabled.length > 0) await this.sendNotices(orgId, outbox);
  }

  /** Sends the notices of the organization's disabled webhooks that no worker sent (claimed first). */
  private async sendNotices(orgId: string, outbox: WebhookOutbox): Promise<void> {
    for (const hook of await outbox.claimNotices(this.deps.realNow(), this.leaseMs())) {
      try {
        await this.deps.notifyDisabled(orgId, hook);
        await outbox.noticeSent(hook.id, new Date(this.deps.clock(orgId)).toISOString());
      } catch (err) {
        this.deps.log.error({ err, orgId, webhookId: hook.id }, 'notice of a disabled webhook not sent; retried');
      }
    }
  }

  /**
   * Forgets the organization's failing webhooks that were deleted or disabled, by any process: no
   * claim brings their deliveries up to end the failing, and while one is held every batch takes
   * triage's path. A store call a failing webhook a sweep, none while none is failing.
   */
  private async forgetGone(orgId: string, outbox: WebhookOutbox): Promise<void> {
    for (const key of this.failing.keys()) {
      const [org, hookId] = key.split('\0') as [string, string];
      if (org !== orgId) continue;
      const hook = await outbox.get(hookId);
      if (hook === null || hook.disabledAt !== null) this.failing.delete(key);
    }
  }

  /**
   * Forgets what this process holds of organizations the list no longer has (deleted, by any
   * process): their entries would stay for the process's life, and a due time left in one would have
   * the tick run an outbox that no longer opens, again and again. One with a run under way is
   * forgotten at a later sweep; one listed again (or nudged) starts afresh, as after a restart. One
   * drained since this sweep asked for the list is kept: the list may have been read before its
   * first webhook was made, and its retry due time would be lost until the next sweep.
   */
  private forgetOrganizations(listed: ReadonlySet<string>, sweep: number): void {
    for (const [orgId, w] of this.orgs) if (!listed.has(orgId) && w.running === null && w.drainedAt < sweep) this.orgs.delete(orgId);
    for (const keys of [this.failing.keys(), this.resumed.keys()]) {
      for (const key of keys) {
        const orgId = key.slice(0, key.indexOf('\0'));
        if (!listed.has(orgId) && !this.orgs.has(orgId)) {
          this.failing.delete(key);
          this.resumed.delete(key);
        }
      }
    }
  }

  /** A secret a rotation replaced is not kept once its overlap has ended; one not forgotten now is at a later claim (or copy). */
  private async forgetExpiredSecrets(orgId: string, outbox: WebhookOutbox, nowMs: number): Promise<void> {
    try {
      await outbox.forgetExpiredSecrets(nowMs);
    } catch (err) {
      this.deps.log.warn({ err, orgId }, 'expired previous secrets not forgotten; tried again at a later claim');
    }
  }

  private async prune(orgId: string, w: OrgWork, outbox: WebhookOutbox): Promise<void> {
    const now = this.deps.clock(orgId);
    if (now - w.prunedAt < PRUNE_EVERY_MS && now >= w.prunedAt) return;
    w.prunedAt = now;
    await outbox.prune(now - this.deps.settings.logDays * 86_400_000);
  }
}
