// The request journal (docs/control-api.md § Journal): the last N requests of each organization, in
// memory, with their tokens and the secrets their routes name masked and their bodies cut; and the
// outbox, the usage notices sent. Both are bounded: N entries per organization (bodies at most
// `bodyLimit` characters each).

import { parseInstant } from './clocks.js';

/** One request as the journal keeps it. */
export interface JournalEntry {
  /** The organization's time when the request arrived (its clock may be moved), ISO 8601. */
  readonly at: string;
  readonly requestId: string;
  readonly method: string;
  /** The path, without the query string. */
  readonly path: string;
  /** The query parameters, tokenid masked. */
  readonly query: Readonly<Record<string, unknown>>;
  /** The header fields, tokenid and authorization masked. */
  readonly headers: Readonly<Record<string, unknown>>;
  /** The request body as JSON text, cut at the journal's body limit; null without one. */
  readonly body: string | null;
  readonly status: number;
  /** The reply body, cut at the body limit. */
  readonly reply: string | null;
  readonly durationMs: number;
  /** true when a body or the reply was cut. */
  readonly truncated: boolean;
}

/** Members from the top of a JSON value, such as ['data', 'secret']. */
export type MemberPath = readonly string[];

/**
 * The secrets a route's request body and reply hold (a route's config names them), masked when the
 * journal is read: every text under each member named, however deep.
 */
export interface JournalSecrets {
  readonly body?: readonly MemberPath[];
  readonly reply?: readonly MemberPath[];
}

/** A request as recorded on the hot path: references and cut texts, masked and formatted when read. */
export type RawJournalEntry = Omit<JournalEntry, 'at' | 'path'> & {
  /** ms since the epoch on the organization's clock. */
  readonly at: number;
  /** Path and query string as sent. */
  readonly url: string;
  /** Its route's secrets, if it names any. */
  readonly secrets?: JournalSecrets | undefined;
};

/** How the journal shows a secret (the one way secrets are shown: webhook-admin.ts maskedValue). */
export type Mask = (secret: string) => string;

function entryOf(raw: RawJournalEntry, mask: Mask): JournalEntry {
  const q = raw.url.indexOf('?');
  return {
    at: new Date(raw.at).toISOString(),
    requestId: raw.requestId,
    method: raw.method,
    path: q < 0 ? raw.url : raw.url.slice(0, q),
    query: maskQuery(raw.query, mask),
    headers: maskHeaders(raw.headers, mask),
    body: maskMembers(raw.body, raw.secrets?.body, mask),
    status: raw.status,
    reply: maskMembers(raw.reply, raw.secrets?.reply, mask),
    durationMs: Math.round(raw.durationMs * 1000) / 1000,
    truncated: raw.truncated,
  };
}

/** Every text in `value` masked; numbers, booleans and null as they are. */
function maskAll(value: unknown, mask: Mask): unknown {
  if (typeof value === 'string') return mask(value);
  if (Array.isArray(value)) return value.map((v) => maskAll(v, mask));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskAll(v, mask)]));
  return value;
}

/**
 * The JSON `text` with every text under the members `paths` name masked. A text that is not JSON
 * (cut at the body limit) is kept up to the first of those members' names, as `"secret":`, for the
 * secret may follow it: what comes after is not shown.
 */
export function maskMembers(text: string | null, paths: readonly MemberPath[] | undefined, mask: Mask): string | null {
  if (text === null || paths === undefined || paths.length === 0) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const starts = paths.map((p) => text.indexOf(`${JSON.stringify(p[p.length - 1])}:`)).filter((i) => i >= 0);
    return starts.length === 0 ? text : text.slice(0, Math.min(...starts));
  }
  for (const path of paths) {
    let parent: unknown = value;
    for (const name of path.slice(0, -1)) parent = parent !== null && typeof parent === 'object' && !Array.isArray(parent) ? (parent as Record<string, unknown>)[name] : undefined;
    const last = path[path.length - 1]!;
    if (parent !== null && typeof parent === 'object' && !Array.isArray(parent) && Object.hasOwn(parent, last)) {
      (parent as Record<string, unknown>)[last] = maskAll((parent as Record<string, unknown>)[last], mask);
    }
  }
  return JSON.stringify(value);
}

export interface JournalFilter {
  readonly method?: string;
  /** Entries whose path contains this text (any case). */
  readonly path?: string;
  /** A status (`404`) or a class (`4xx`). */
  readonly status?: string;
  /** ISO 8601 dates or date-times (UTC without a zone): entries at or after `since`, before `until`. */
  readonly since?: string;
  readonly until?: string;
  /** At most this many, newest first. */
  readonly limit?: number;
}

const SECRET_HEADERS = new Set(['tokenid', 'authorization']);

export function maskHeaders(headers: Readonly<Record<string, unknown>>, mask: Mask): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? (Array.isArray(value) ? value.map((v) => mask(String(v))) : mask(String(value))) : value;
  }
  return out;
}

export function maskQuery(query: Readonly<Record<string, unknown>>, mask: Mask): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) out[name] = name.toLowerCase() === 'tokenid' ? mask(String(value)) : value;
  return out;
}

/** `text` cut at `limit` characters; the flag says whether it was. */
export function cut(text: string | null, limit: number): { text: string | null; cut: boolean } {
  if (text === null || text.length <= limit) return { text, cut: false };
  return { text: text.slice(0, limit), cut: true };
}

/** A ring of the last `size` items. */
class Ring<T> {
  private readonly items: T[] = [];
  private start = 0;
  constructor(private readonly size: number) {}

  push(item: T): void {
    if (this.items.length < this.size) this.items.push(item);
    else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.size;
    }
  }

  /** Newest first. */
  newestFirst(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)].reverse();
  }
}

function decodes(escapes: string): boolean {
  try {
    decodeURIComponent(escapes);
    return true;
  } catch {
    return false;
  }
}

/**
 * `text` with each run of percent-escapes that is UTF-8 decoded (`%D7%A9` → `ש`, `%20` → a space);
 * an escape that is not (`%zz`, a lone `%D7`) stays as written. NFC, so a composed and a decomposed
 * letter read alike.
 */
export function decodedPath(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    // One character at a time (a UTF-8 sequence is 1 to 4 escapes), an escape that starts none kept.
    let out = '';
    for (let i = 0; i < run.length;) {
      const n = [4, 3, 2, 1].find((k) => i + 3 * k <= run.length && decodes(run.slice(i, i + 3 * k)));
      out += n === undefined ? run.slice(i, i + 3) : decodeURIComponent(run.slice(i, i + 3 * n));
      i += 3 * (n ?? 1);
    }
    return out;
  }).normalize('NFC');
}

/**
 * Whether a path holds `text`, without regard to case or to how either is percent-encoded: as
 * written, or both decoded (typed Hebrew or a space finds a path sent as `…/%D7%A9%D7%9C%D7%95%D7%9D`).
 */
export function pathContains(path: string, text: string): boolean {
  const fold = (t: string) => t.toLowerCase();
  return fold(path).includes(fold(text)) || fold(decodedPath(path)).includes(fold(decodedPath(text)));
}

function matches(entry: JournalEntry, f: JournalFilter, since: number, until: number): boolean {
  if (f.method !== undefined && entry.method !== f.method.toUpperCase()) return false;
  if (f.path !== undefined && !pathContains(entry.path, f.path)) return false;
  if (f.status !== undefined) {
    const s = String(entry.status);
    if (/^[1-5]xx$/i.test(f.status) ? s[0] !== f.status[0] : s !== f.status) return false;
  }
  const at = Date.parse(entry.at);
  return at >= since && at < until;
}

/** How long a deleted organization is told apart from one loaded again under its id: past the longest request or webhook attempt still under way at the delete. */
const DELETED_KEPT_MS = 10 * 60_000;

/**
 * Organizations deleted lately, with when (real time, ms). A request or a webhook attempt begun
 * before the delete and ended after it is the deleted organization's: what it leaves (a journal
 * entry, an outbox message) is not kept for one loaded again since under the same id.
 */
class DeletedOrganizations {
  private readonly at = new Map<string, number>();

  add(orgId: string, nowMs: number): void {
    for (const [id, at] of this.at) if (at < nowMs - DELETED_KEPT_MS) this.at.delete(id);
    this.at.set(orgId, nowMs);
  }

  /** Whether something of `orgId` begun at `startedMs` (real time) began before the organization was deleted. */
  before(orgId: string, startedMs: number | undefined): boolean {
    if (this.at.size === 0 || startedMs === undefined) return false;
    const deletedMs = this.at.get(orgId);
    return deletedMs !== undefined && startedMs <= deletedMs;
  }
}

/** Per-organization rings of entries; `size` 0 keeps nothing (the server then does not record at all). */
export class RequestJournal {
  private readonly orgs = new Map<string, Ring<RawJournalEntry>>();
  private readonly deleted = new DeletedOrganizations();

  /** `mask`: how a secret is shown (the tokens, and the secrets of each entry's route). */
  constructor(readonly size: number, readonly bodyLimit: number, private readonly mask: Mask) {}

  /** Keeps `entry`; `startedMs` (real time) is when its request arrived: one that arrived before the organization was deleted is not kept. */
  record(orgId: string, entry: RawJournalEntry, startedMs?: number): void {
    if (this.size === 0 || this.deleted.before(orgId, startedMs)) return;
    let ring = this.orgs.get(orgId);
    if (!ring) this.orgs.set(orgId, (ring = new Ring(this.size)));
    ring.push(entry);
  }

  query(orgId: string, filter: JournalFilter = {}): JournalEntry[] {
    // Read as a clock's `at` is: UTC when no zone is given, whatever the server's time zone.
    const since = filter.since !== undefined ? parseInstant(filter.since) ?? NaN : -Infinity;
    const until = filter.until !== undefined ? parseInstant(filter.until) ?? NaN : Infinity;
    const found = (this.orgs.get(orgId)?.newestFirst() ?? []).map((raw) => entryOf(raw, this.mask)).filter((e) => matches(e, filter, since, until));
    return filter.limit !== undefined ? found.slice(0, filter.limit) : found;
  }

  /** Forgets an organization's entries (every organization's without one). */
  clear(orgId?: string): void {
    if (orgId === undefined) this.orgs.clear();
    else this.orgs.delete(orgId);
  }
  /** The organization was deleted at `nowMs` (real time): its entries go, and those of requests under way then are not kept. */
  forget(orgId: string, nowMs: number = Date.now()): void {
    this.orgs.delete(orgId);
    this.deleted.add(orgId, nowMs);
  }
}

/** What every message of the outbox has. */
interface SentMessage {
  /** The organization's time when it was sent, ISO 8601. */
  readonly at: string;
  /** An e-mail address, or a webhook delivery's URL, its query values masked (webhook-admin.ts maskedUrl). */
  readonly to: string;
  /** An e-mail's subject, or a delivery's event type (account.created). */
  readonly subject: string;
  /** An e-mail's text, or a delivery's JSON body. */
  readonly text: string;
}

/** A usage notice: its UTC day, threshold (percent), requests used and the cap. */
export interface UsageNoticeMessage extends SentMessage {
  readonly kind: 'usage-notice';
  readonly day: string;
  readonly threshold: number;
  readonly used: number;
  readonly cap: number;
}

/** The notice that a webhook was disabled for failing too long (docs/webhooks.md). */
export interface WebhookDisabledMessage extends SentMessage {
  readonly kind: 'webhook-disabled';
  readonly webhookId: string;
}

/** One attempt of a webhook delivery, and what it got. */
export interface WebhookDeliveryMessage extends SentMessage {
  readonly kind: 'webhook-delivery';
  readonly webhookId: string;
  readonly deliveryId: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/** A message the server sent, as the outbox shows it. */
export type OutboxMessage = UsageNoticeMessage | WebhookDisabledMessage | WebhookDeliveryMessage;

/** Messages kept per organization. */
export const OUTBOX_SIZE = 100;

/** The messages sent per organization, the last OUTBOX_SIZE of each. */
export class Outbox {
  private readonly orgs = new Map<string, Ring<OutboxMessage>>();
  private readonly deleted = new DeletedOrganizations();

  /**
   * Keeps `message`; `startedMs` (real time) is when its sending began: one begun before the
   * organization was deleted (a webhook attempt under way then) is the deleted organization's, and
   * not kept for one loaded again since under its id.
   */
  record(orgId: string, message: OutboxMessage, startedMs?: number): void {
    if (this.deleted.before(orgId, startedMs)) return;
    let ring = this.orgs.get(orgId);
    if (!ring) this.orgs.set(orgId, (ring = new Ring(OUTBOX_SIZE)));
    ring.push(message);
  }

  /** Newest first. */
  list(orgId: string): OutboxMessage[] {
    return this.orgs.get(orgId)?.newestFirst() ?? [];
  }

  clear(orgId?: string): void {
    if (orgId === undefined) this.orgs.clear();
    else this.orgs.delete(orgId);
  }

  /** The organization was deleted at `nowMs` (real time): its messages go, and those of sendings under way then are not kept. */
  forget(orgId: string, nowMs: number = Date.now()): void {
    this.orgs.delete(orgId);
    this.deleted.add(orgId, nowMs);
  }
}
