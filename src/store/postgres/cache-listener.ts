// What PostgreSQL tells a process about changes other processes commit (LISTEN/NOTIFY), so it may keep
// token identities and organization schemas in memory instead of reading them on every request
// (docs/scaling.md § What a process keeps in memory). A change to the control tables (trigger) or to
// an organization's definitions (the change's own transaction) notifies the control schema's channel
// at commit; every process listening drops what the notice names.
//
// A notice can be lost (the listening connection drops, a network stalls), so the listener only vouches
// for its caches while it can prove it is current: it notifies itself every PING_MS, and notices are
// delivered in commit order, so receiving a ping sent at t proves every change committed before t
// was delivered. Caches are trusted for BOUND_MS after the send time of the last ping received: a
// change committed anywhere is seen within BOUND_MS, usually within milliseconds. Past that (no
// connection, a stalled one), reads are uncached until the listener is current again; on reconnecting it
// tells its subscribers to drop everything, as notices sent meanwhile were missed. A connection that
// stalls (bytes stop, the socket stays open: nothing ends it) is given up after STALL_BOUNDS bounds
// without a ping back, and a new one made.

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { qi } from './pg-db.js';
import type { StoreLog } from '../types.js';

/** How long a change another process committed may go unseen: the longest a cache is trusted. */
export const BOUND_MS = 1_000;
/** How often the listener notifies itself to prove it is current. */
export const PING_MS = 250;
/** How long the listener waits before connecting again after losing its connection. */
export const RECONNECT_MS = 1_000;
/** Bounds without hearing its own ping after which the listener gives its connection up as stalled. */
export const STALL_BOUNDS = 3;

/** The notice of a change to the control tables (tokens, users, roles, organizations). */
export const CONTROL_CHANGED = 'control';
/** The notice of a change to one organization's definitions (objects, fields, views) or of its whole state. */
export const schemaChanged = (orgId: string): string => `schema:${orgId}`;

/** The statement that notifies `payload` on `channel` (run it inside the change's transaction, so it is heard at commit). */
export function notifyStatement(channel: string, payload: string): { text: string; values: string[] } {
  return { text: 'SELECT pg_notify($1, $2)', values: [channel, payload] };
}

export interface CacheListenerOptions {
  readonly boundMs?: number;
  readonly pingMs?: number;
  readonly reconnectMs?: number;
  /** Milliseconds since the epoch (tests). */
  readonly clock?: () => number;
}

/** The part of pino (Fastify's logger) the listener uses. */
export type ListenerLog = StoreLog;

/** What a cache is told: a notice's payload, or null for "drop everything" (notices may have been missed). */
export type ChangeListener = (payload: string | null) => void;

export class CacheListener {
  /** The channel: the control schema's name, so deployments (and test suites) sharing a server never hear each other. */
  readonly channel: string;
  private readonly boundMs: number;
  private readonly pingMs: number;
  private readonly reconnectMs: number;
  private readonly clock: () => number;
  private log: ListenerLog | undefined;
  private readonly listeners = new Set<ChangeListener>();
  private readonly pingPrefix = `ping:${randomUUID()}:`;
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private pinger: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** Caches are trusted until this instant (ms since the epoch): BOUND_MS past the send time of the last ping received. */
  private trustedUntil = 0;
  /** When the connection was made or its last ping heard; the stall check counts from it. */
  private heardAt = 0;
  /** A ping sent and not yet answered: no other is sent meanwhile (it would queue behind a stalled one). */
  private pinging = false;
  /** The loss was logged and the return is not yet: each is logged once. */
  private lostLogged = false;
  private closed = false;

  constructor(private readonly url: string, schema: string, options: CacheListenerOptions = {}) {
    this.channel = schema;
    this.boundMs = options.boundMs ?? BOUND_MS;
    this.pingMs = options.pingMs ?? PING_MS;
    this.reconnectMs = options.reconnectMs ?? RECONNECT_MS;
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Whether a cache may answer now: the listener is listening and has shown within BOUND_MS that every
   * change committed before then reached it. The first call starts the listener (a process that never
   * asks, the CLI, never opens its connection); until it is current, the answer is false.
   */
  trusted(): boolean {
    if (this.client === undefined && this.connecting === undefined && !this.closed) this.start();
    return this.clock() < this.trustedUntil;
  }

  /** Where the loss of the listening connection, and its return, are told (once each, warn then info). */
  logTo(log: ListenerLog): void {
    this.log = log;
  }

  /** Calls `listener` with every notice, and with null when notices may have been missed. Returns the unsubscribe. */
  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(payload: string | null): void {
    for (const listener of this.listeners) listener(payload);
  }

  private start(): void {
    this.connecting = this.connect().finally(() => {
      this.connecting = undefined;
    });
  }

  private async connect(): Promise<void> {
    // Named, so an operator (or a test) can find the listening connection in pg_stat_activity.
    // keepAlive: the system tells of a peer gone for good, even while nothing is sent. The time
    // limits keep a connection that stalls while being made from holding the listener up.
    const client = new pg.Client({
      connectionString: this.url, application_name: `orchard-cache:${this.channel}`,
      keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, query_timeout: CONNECT_TIMEOUT_MS,
    });
    // Errors after connecting end in 'end' too; the listener keeps them from crashing the process.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query(`LISTEN ${qi(this.channel)}`);
    } catch {
      destroy(client);
      this.lost();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    client.on('notification', (msg) => this.onNotice(msg.payload ?? ''));
    client.once('end', () => {
      if (this.client === client) this.lost();
    });
    // Notices committed before LISTEN took effect were missed.
    this.tell(null);
    this.heardAt = this.clock();
    this.pinging = false;
    this.ping();
    this.pinger = setInterval(() => this.ping(), this.pingMs);
    this.pinger.unref();
  }

  private ping(): void {
    const client = this.client;
    if (!client) return;
    const sent = this.clock();
    if (this.pinging && sent - this.heardAt > STALL_BOUNDS * this.boundMs) {
      this.lost();
      return;
    }
    if (this.pinging) return;
    this.pinging = true;
    client.query(notifyStatement(this.channel, `${this.pingPrefix}${sent}`)).then(
      () => {
        if (this.client === client) this.pinging = false;
      },
      () => {
        // A connection that cannot notify cannot be trusted to hear either.
        if (this.client === client) this.lost();
      },
    );
  }

  private onNotice(payload: string): void {
    if (payload.startsWith(this.pingPrefix)) {
      const sent = Number(payload.slice(this.pingPrefix.length));
      this.trustedUntil = Math.max(this.trustedUntil, sent + this.boundMs);
      this.heardAt = this.clock();
      if (this.lostLogged && this.trusted()) {
        this.lostLogged = false;
        this.log?.info({ channel: this.channel }, 'Cache listener back: identities and definitions are kept in memory again');
      }
      return;
    }
    // Another process's ping says nothing of this listener.
    if (payload.startsWith('ping:')) return;
    this.tell(payload);
  }

  /** The connection is gone: nothing is trusted, every cache drops what it holds, and the listener connects again later. */
  private lost(): void {
    this.trustedUntil = 0;
    clearInterval(this.pinger);
    this.pinger = undefined;
    const client = this.client;
    this.client = undefined;
    // Destroyed, not ended: a goodbye on a stalled connection would wait for an answer that never comes.
    if (client) destroy(client);
    this.tell(null);
    if (!this.closed && !this.lostLogged) {
      this.lostLogged = true;
      this.log?.warn({ channel: this.channel }, 'Cache listener lost: identities and definitions are read from PostgreSQL on every request until it is back');
    }
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closed && !this.client && !this.connecting) this.start();
    }, this.reconnectMs);
    this.retry.unref();
  }

  /** The listening connection's server process id (tests end it to play a lost connection); undefined when not connected. */
  get backendPid(): number | undefined {
    return (this.client as unknown as { processID?: number } | undefined)?.processID;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.trustedUntil = 0;
    clearInterval(this.pinger);
    clearTimeout(this.retry);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // A goodbye, so the server logs no lost client; a stalled connection never answers it.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([client.end().catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    destroy(client);
  }
}

/** How long close() waits for the server to answer its goodbye. */
const CLOSE_WAIT_MS = 1_000;

/** How long the listener waits for a connection to be made before trying again. */
const CONNECT_TIMEOUT_MS = 5_000;

/** Ends `client`'s connection at once, whatever the peer does. */
function destroy(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  void client.end().catch(() => {});
}
