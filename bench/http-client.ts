// A lean HTTP/1.1 client for latency figures: one kept-alive socket, one request at a time, the
// reply read by its Content-Length. fetch (undici) spends about 0.45 ms of its own per round trip
// on this machine, more than the server's whole work for a cheap query, so timing a server with
// it mostly times fetch; this client costs a few microseconds, and the hello-world anchor timed
// with it in the same run shows what the HTTP round trip alone costs.

import net from 'node:net';
import { median } from './lib.js';

export interface RoundTrip {
  readonly status: number;
  readonly body: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');

export class LeanHttpClient {
  private readonly socket: net.Socket;
  private readonly host: string;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (r: RoundTrip) => void; reject: (err: Error) => void } | undefined;
  private failure: Error | undefined;

  private constructor(socket: net.Socket, host: string) {
    this.socket = socket;
    this.host = host;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.parse();
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      this.waiting?.reject(err);
      this.waiting = undefined;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the server closed the connection')));
  }

  /** Connects to `url` (http://host:port). */
  static connect(url: string): Promise<LeanHttpClient> {
    const { hostname, port, host } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.off('error', reject);
        resolve(new LeanHttpClient(socket, host));
      });
      socket.once('error', reject);
    });
  }

  /** Sends one request and resolves with the reply; one request may be outstanding at a time. */
  request(method: string, path: string, headers: Readonly<Record<string, string>> = {}, body?: string): Promise<RoundTrip> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new Error('LeanHttpClient sends one request at a time'));
    const payload = body === undefined ? undefined : Buffer.from(body);
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    if (payload) head += `content-length: ${payload.length}\r\n`;
    head += '\r\n';
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(payload ? Buffer.concat([Buffer.from(head), payload]) : head);
    });
  }

  private parse(): void {
    const end = this.buffered.indexOf(HEAD_END);
    if (end < 0 || !this.waiting) return;
    const head = this.buffered.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) {
      this.waiting.reject(new Error(`a reply without Content-Length (status ${status}); this client reads no other framing`));
      this.waiting = undefined;
      this.socket.destroy();
      return;
    }
    const total = end + HEAD_END.length + Number(length[1]);
    if (this.buffered.length < total) return;
    const body = this.buffered.subarray(end + HEAD_END.length, total).toString('utf8');
    this.buffered = this.buffered.subarray(total);
    const { resolve } = this.waiting;
    this.waiting = undefined;
    resolve({ status, body });
  }

  close(): void {
    this.failure ??= new Error('closed');
    this.socket.destroy();
  }
}

/**
 * Median ms of `samples` sequential round trips of one request (answered 200) on a connection of
 * its own, after `warmupMs` of the same request untimed and `samples` requests at least.
 */
export async function medianRoundTrip(url: string, req: { method: string; path: string; headers?: Readonly<Record<string, string>>; body?: string }, samples: number, warmupMs: number): Promise<number> {
  const client = await LeanHttpClient.connect(url);
  try {
    const send = async () => {
      const res = await client.request(req.method, req.path, req.headers, req.body);
      if (res.status !== 200) throw new Error(`${req.method} ${req.path} answered ${res.status}: ${res.body.slice(0, 200)}`);
    };
    const warmUntil = Date.now() + warmupMs;
    for (let i = 0; i < samples || Date.now() < warmUntil; i++) await send();
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const start = process.hrtime.bigint();
      await send();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return median(times);
  } finally {
    client.close();
  }
}
