// The HTTP/1.1 client of webhook attempts (sender.ts). Node's http client cost the sender thread
// half as much again in CPU an attempt (bench/README.md § Webhooks), and an attempt needs little of
// it: one request whose body has a known length; the reply's status and the start of its
// body, framed by Content-Length, chunked coding or the connection's end; interim 1xx replies passed
// over; connections kept alive per origin. Redirects are not followed (an attempt's 3xx is a failure).

import net from 'node:net';
import tls from 'node:tls';

export interface Http1Request {
  readonly url: URL;
  readonly method: string;
  /** Header fields as sent; host, content-length and connection are the client's own. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
  /** Bytes of the reply's body read at most: past them the connection is dropped rather than drained. */
  readonly maxBodyBytes: number;
  /** Milliseconds for the whole exchange: connection, request and reply. */
  readonly timeoutMs: number;
  readonly lookup?: net.LookupFunction | undefined;
}

export interface Http1Reply {
  readonly status: number;
  /** The body's first maxBodyBytes bytes at most. */
  readonly body: Buffer;
}

/**
 * An error with a stable code, as Node's network errors have (sender.ts shows `code: message`);
 * `status` is the reply's when its head had been read before the exchange failed (a body cut short).
 */
export class Http1Error extends Error {
  constructor(readonly code: string, message: string, readonly status: number | null = null) {
    super(message);
  }
}

/** Header field values Node's client accepts: no control characters but HT, nothing past U+00FF. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Whether HTTP/1.1 can carry `value` as a header field's value (webhook-definition.ts refuses the rest when a webhook is made). */
export const isFieldValue = (value: string): boolean => FIELD_VALUE.test(value);

/** How to write a header field's value that HTTP/1.1 can carry, for the messages that refuse one. */
export const FIELD_VALUE_FIX = 'use characters up to U+00FF and no control characters but tab (percent- or base64-encode other text)';

/** What in the value of the header field `name` HTTP/1.1 cannot carry, for a message; null when it can carry it all. */
export function fieldValueFault(name: string, value: string): string | null {
  if (isFieldValue(value)) return null;
  const bad = [...value].find((c) => !isFieldValue(c))!;
  const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `the value of the header field '${name}' has ${code}${/[\x00-\x1f\x7f]/.test(bad) ? '' : ` (${bad})`}, which HTTP/1.1 cannot send`;
}

/** Connections to one origin at most; further requests wait for one (Node's agent had the same bound). */
const MAX_SOCKETS = 16;
/** An idle connection is closed after this long: receivers close theirs too, and a stale one costs a retry. */
const IDLE_MS = 30_000;
/** A reply's head larger than this, its interim replies' counted in, is refused (Node's default is 16 KiB). */
const MAX_HEAD_BYTES = 64 * 1024;
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: |$)/;

interface Exchange {
  readonly request: Http1Request;
  readonly bytes: Buffer;
  readonly resolve: (reply: Http1Reply) => void;
  readonly reject: (err: Error) => void;
  /** Whether a failure before any byte of the reply may be retried once on a new connection. */
  retried: boolean;
  settled: boolean;
  timer: NodeJS.Timeout | undefined;
}

/** How the reply's body is framed once its head is read. */
type Phase =
  | { kind: 'head' }
  | { kind: 'length'; left: number }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; left: number }
  | { kind: 'chunk-end' }
  | { kind: 'trailers' }
  | { kind: 'to-close' };

/** A failure after the reply's head: the same code and message, with the status the receiver gave. */
function cutShort(err: Error, status: number): Http1Error {
  return new Http1Error((err as NodeJS.ErrnoException).code ?? 'ECONNRESET', err.message, status);
}

class Connection {
  exchange: Exchange | null = null;
  /** Exchanges this connection has completed: a failure on one that has served may be a receiver's idle close. */
  served = 0;
  private pending: Buffer | null = null;
  private phase: Phase = { kind: 'head' };
  private replyBytes = 0;
  /** Bytes of the reply's heads so far, interim replies' included. */
  private headBytes = 0;
  private status = 0;
  private keepAlive = false;
  private chunks: Buffer[] = [];
  private bodyBytes = 0;

  constructor(readonly socket: net.Socket, private readonly pool: OriginPool) {
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.onData(data));
    socket.on('end', () => this.fail(this.phase.kind === 'to-close' ? null : new Http1Error('ECONNRESET', 'the receiver closed the connection before its reply was complete')));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Http1Error('ECONNRESET', 'the connection closed before the reply was complete')));
    socket.on('timeout', () => socket.destroy());
  }

  start(exchange: Exchange): void {
    this.exchange = exchange;
    this.pending = null;
    this.phase = { kind: 'head' };
    this.replyBytes = 0;
    this.headBytes = 0;
    this.chunks = [];
    this.bodyBytes = 0;
    this.socket.setTimeout(0);
    this.socket.ref();
    this.socket.write(exchange.bytes);
  }

  /** `err` null: the reply ended with the connection, as its framing said it would. */
  private fail(err: Error | null): void {
    const exchange = this.exchange;
    this.pool.drop(this);
    if (!exchange) return;
    const status = this.replyStatus();
    this.exchange = null;
    if (err !== null && status !== null) err = cutShort(err, status);
    if (err === null) {
      this.socket.destroy();
      this.pool.settle(exchange, { status: this.status, body: Buffer.concat(this.chunks) });
    } else if (this.served > 0 && this.replyBytes === 0 && !exchange.retried) {
      exchange.retried = true;
      this.pool.dispatch(exchange, true);
    } else {
      this.pool.reject(exchange, err);
    }
  }

  private protocolError(message: string): void {
    const err = new Http1Error('HPE_INVALID_REPLY', message);
    this.fail(err);
    this.socket.destroy();
  }

  private onData(data: Buffer): void {
    if (!this.exchange) {
      // Bytes no request asked for: the connection's state is unknown.
      this.socket.destroy();
      return;
    }
    this.replyBytes += data.length;
    let buf = this.pending ? Buffer.concat([this.pending, data]) : data;
    this.pending = null;
    while (this.exchange) {
      const phase = this.phase;
      if (phase.kind === 'head' || phase.kind === 'chunk-size' || phase.kind === 'trailers') {
        const head = phase.kind === 'head';
        const end = buf.indexOf(head ? '\r\n\r\n' : '\r\n');
        // A hostile receiver's interim replies, chunk lines or trailers without end are read no
        // further than the bounds: the heads' together, the rest with the body's.
        const lineBytes = end < 0 ? buf.length : end + (head ? 4 : 2);
        if (head) {
          if (this.headBytes + lineBytes > MAX_HEAD_BYTES) return this.protocolError(`the reply's head, its interim replies' counted in, passed ${MAX_HEAD_BYTES} bytes`);
        } else if (!this.spend(lineBytes, end >= 0)) {
          return;
        }
        if (end < 0) {
          this.pending = buf.length > 0 ? buf : null;
          return;
        }
        if (head) this.headBytes += lineBytes;
        const text = buf.toString('latin1', 0, end);
        buf = buf.subarray(lineBytes);
        if (head) {
          if (!this.readHead(text)) return;
        } else if (phase.kind === 'chunk-size') {
          const size = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(text);
          if (!size) return this.protocolError(`a chunk's size line is not hexadecimal: ${JSON.stringify(text.slice(0, 40))}`);
          const left = parseInt(size[1]!, 16);
          this.phase = left === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', left };
        } else if (text === '') {
          this.complete(buf);
        }
      } else if (phase.kind === 'chunk-end') {
        if (buf.length < 2) {
          this.pending = buf.length > 0 ? buf : null;
          return;
        }
        if (buf[0] !== 13 || buf[1] !== 10) return this.protocolError('a chunk did not end with CRLF');
        if (!this.spend(2)) return;
        buf = buf.subarray(2);
        this.phase = { kind: 'chunk-size' };
      } else {
        // Body bytes: a length, a chunk's data, or up to the connection's end.
        const take = phase.kind === 'to-close' ? buf.length : Math.min(phase.left, buf.length);
        if (!this.keep(buf.subarray(0, take))) return;
        buf = buf.subarray(take);
        if (phase.kind === 'to-close') return;
        phase.left -= take;
        if (phase.left > 0) return;
        if (phase.kind === 'length') this.complete(buf);
        else this.phase = { kind: 'chunk-end' };
      }
    }
  }

  /** Reads a reply's head; false when it failed the exchange. */
  private readHead(text: string): boolean {
    const lines = text.split('\r\n');
    const first = STATUS_LINE.exec(lines[0]!);
    if (!first) {
      this.protocolError(`the reply does not start with an HTTP/1.x status line: ${JSON.stringify(lines[0]!.slice(0, 60))}`);
      return false;
    }
    const status = Number(first[2]);
    // An interim reply (100 Continue, 103 Early Hints): the final one follows.
    if (status < 200 && status !== 101) return true;
    let length: number | null = null;
    let chunked = false;
    let close = first[1] === '0';
    let toClose = false;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) {
        this.protocolError(`a header line of the reply has no name: ${JSON.stringify(line.slice(0, 60))}`);
        return false;
      }
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim().toLowerCase();
      if (name === 'content-length') {
        if (!/^\d{1,15}$/.test(value) || (length !== null && length !== Number(value))) {
          this.protocolError(`the reply's Content-Length is not one number: ${JSON.stringify(value.slice(0, 40))}`);
          return false;
        }
        length = Number(value);
      } else if (name === 'transfer-encoding') {
        // A coding other than chunked last: the body ends with the connection, whatever its length says.
        chunked = value.split(',').at(-1)!.trim() === 'chunked';
        if (!chunked) toClose = true;
      } else if (name === 'connection') {
        const tokens = value.split(',').map((t) => t.trim());
        if (tokens.includes('close')) close = true;
        else if (tokens.includes('keep-alive')) close = false;
      }
    }
    this.status = status;
    this.keepAlive = !close && status !== 101;
    if (status === 204 || status === 304 || status === 101) this.complete(Buffer.alloc(0));
    else if (chunked) this.phase = { kind: 'chunk-size' };
    else if (length !== null && !toClose) {
      this.phase = { kind: 'length', left: length };
      if (length === 0) this.complete(Buffer.alloc(0));
    } else {
      this.phase = { kind: 'to-close' };
      this.keepAlive = false;
    }
    return true;
  }

  /** Keeps body bytes up to the bound; past it, settles with what it has and drops the connection. */
  private keep(bytes: Buffer): boolean {
    if (bytes.length === 0) return true;
    if (!this.spend(bytes.length)) return false;
    this.chunks.push(bytes);
    return true;
  }

  /**
   * Counts bytes after the head (body, chunk lines and ends, trailers) against the body's bound;
   * past it, settles with the body kept and drops the connection. `whole` false: a line not yet
   * ended, checked but not counted, since it is read again with the bytes that follow.
   */
  private spend(bytes: number, whole = true): boolean {
    if (this.bodyBytes + bytes <= this.exchange!.request.maxBodyBytes) {
      if (whole) this.bodyBytes += bytes;
      return true;
    }
    this.keepAlive = false;
    this.complete(Buffer.alloc(0));
    return false;
  }

  /** The reply is whole; `rest` is what came after it, which a reply to one request cannot have. */
  private complete(rest: Buffer): void {
    const exchange = this.exchange!;
    this.exchange = null;
    this.served++;
    const reply = { status: this.status, body: this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks) };
    if (this.keepAlive && rest.length === 0) this.pool.release(this);
    else {
      this.pool.drop(this);
      this.socket.destroy();
    }
    this.pool.settle(exchange, reply);
  }

  /** The status of the reply under way when its head has been read; null before. */
  replyStatus(): number | null {
    return this.exchange && this.phase.kind !== 'head' ? this.status : null;
  }

  idle(): void {
    this.socket.unref();
    this.socket.setTimeout(IDLE_MS);
  }
}

class OriginPool {
  private readonly idle: Connection[] = [];
  private readonly busy = new Set<Connection>();
  private readonly waiting: Exchange[] = [];
  private closed = false;

  constructor(private readonly url: URL, private readonly lookup: net.LookupFunction | undefined, private readonly onEmpty: () => void) {}

  dispatch(exchange: Exchange, fresh = false): void {
    if (exchange.settled) return;
    // A retry after close() destroyed its connection: nothing goes out once closed.
    if (this.closed) return this.reject(exchange, new Http1Error('ECANCELED', 'the sender was closed'));
    const reused = fresh ? undefined : this.idle.pop();
    if (reused) {
      this.busy.add(reused);
      reused.start(exchange);
    } else if (this.busy.size + this.idle.length < MAX_SOCKETS || fresh) {
      const connection = this.connect();
      this.busy.add(connection);
      connection.start(exchange);
    } else {
      this.waiting.push(exchange);
    }
  }

  private connect(): Connection {
    const host = this.url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(this.url.port) || (this.url.protocol === 'https:' ? 443 : 80);
    const lookup = this.lookup ? { lookup: this.lookup } : {};
    const socket = this.url.protocol === 'https:'
      ? tls.connect({ host, port, ...lookup, ...(net.isIP(host) ? {} : { servername: host }), ALPNProtocols: ['http/1.1'] })
      : net.connect({ host, port, ...lookup });
    return new Connection(socket, this);
  }

  release(connection: Connection): void {
    this.busy.delete(connection);
    const next = this.nextWaiting();
    if (next) {
      this.busy.add(connection);
      connection.start(next);
      return;
    }
    connection.idle();
    this.idle.push(connection);
  }

  drop(connection: Connection): void {
    const held = this.busy.delete(connection);
    const i = this.idle.indexOf(connection);
    if (i >= 0) this.idle.splice(i, 1);
    if (held || i >= 0) {
      const next = this.nextWaiting();
      if (next) this.dispatch(next);
    }
    if (this.idle.length === 0 && this.busy.size === 0 && this.waiting.length === 0) this.onEmpty();
  }

  private nextWaiting(): Exchange | undefined {
    let next = this.waiting.shift();
    while (next?.settled) next = this.waiting.shift();
    return next;
  }

  settle(exchange: Exchange, reply: Http1Reply): void {
    if (exchange.settled) return;
    exchange.settled = true;
    clearTimeout(exchange.timer);
    exchange.resolve(reply);
  }

  reject(exchange: Exchange, err: Error): void {
    if (exchange.settled) return;
    exchange.settled = true;
    clearTimeout(exchange.timer);
    exchange.reject(err);
  }

  /** Ends the exchange under way on whichever connection holds it (its time ran out). */
  abandon(exchange: Exchange, err: Error): void {
    for (const connection of this.busy) {
      if (connection.exchange === exchange) {
        const status = connection.replyStatus();
        if (status !== null) err = cutShort(err, status);
        connection.exchange = null;
        connection.socket.destroy();
        this.drop(connection);
      }
    }
    this.reject(exchange, err);
  }

  close(): void {
    this.closed = true;
    for (const connection of [...this.idle, ...this.busy]) connection.socket.destroy();
    for (const exchange of this.waiting.splice(0)) this.reject(exchange, new Http1Error('ECANCELED', 'the sender was closed'));
  }
}

export class Http1Client {
  private readonly pools = new Map<string, OriginPool>();

  /** Rejects with the connection's error, an Http1Error, or TIMEOUT; never follows a redirect. */
  request(request: Http1Request): Promise<Http1Reply> {
    const { url } = request;
    let head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: keep-alive\r\ncontent-length: ${request.body.length}\r\n`;
    for (const [name, value] of request.headers) {
      const fault = fieldValueFault(name, value);
      if (fault !== null) return Promise.reject(new Http1Error('ERR_INVALID_CHAR', fault));
      head += `${name}: ${value}\r\n`;
    }
    const bytes = Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), request.body]);
    const key = `${url.protocol}//${url.host}`;
    let origin = this.pools.get(key);
    if (!origin) {
      // A receiver's pool goes once it holds nothing, so that the map keeps only receivers in use.
      const pool: OriginPool = new OriginPool(url, request.lookup, () => {
        if (this.pools.get(key) === pool) this.pools.delete(key);
      });
      this.pools.set(key, (origin = pool));
    }
    return new Promise((resolve, reject) => {
      const exchange: Exchange = { request, bytes, resolve, reject, retried: false, settled: false, timer: undefined };
      exchange.timer = setTimeout(() => origin.abandon(exchange, new Http1Error('TIMEOUT', `no complete reply within ${request.timeoutMs} ms`)), request.timeoutMs);
      origin.dispatch(exchange);
    });
  }

  close(): void {
    for (const pool of this.pools.values()) pool.close();
    this.pools.clear();
  }
}
