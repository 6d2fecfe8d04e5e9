// A TCP proxy a test controls, in front of the shared PostgreSQL (which must never be stopped): it
// plays a stalled network by freezing connections (bytes stop both ways, sockets stay open: a
// half-open TCP connection as a dead peer or a dropped route leaves it), and resumes them.

import net from 'node:net';

interface Pair {
  readonly client: net.Socket;
  readonly server: net.Socket;
  frozen: boolean;
  /** What arrived while frozen, in order, each with the socket it goes to. */
  readonly held: Array<[net.Socket, Buffer]>;
}

export class TcpProxy {
  private readonly pairs = new Set<Pair>();
  /** Connections made while this is true start frozen. */
  private freezeNew = false;

  private constructor(private readonly server: net.Server, readonly port: number) {}

  /** A proxy on a spare local port forwarding to `target` (`host:port`). */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = net.createServer((client) => proxy!.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as net.AddressInfo).port);
    return proxy;
  }

  /** `url` (a postgres:// URL) pointed at the proxy instead of its host and port. */
  static urlThrough(url: string, proxy: TcpProxy): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(proxy.port);
    return u.toString();
  }

  /** The host and port `url` names. */
  static targetOf(url: string): { host: string; port: number } {
    const u = new URL(url);
    return { host: u.hostname || '127.0.0.1', port: Number(u.port || 5432) };
  }

  private accept(client: net.Socket, target: { host: string; port: number }): void {
    const server = net.connect(target.port, target.host);
    const pair: Pair = { client, server, frozen: this.freezeNew, held: [] };
    this.pairs.add(pair);
    const forward = (to: net.Socket) => (chunk: Buffer) => {
      if (pair.frozen) pair.held.push([to, chunk]);
      else to.write(chunk);
    };
    client.on('data', forward(server));
    server.on('data', forward(client));
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    // A socket that ends or fails ends its peer, unless frozen: then the peer hears nothing, as
    // across a stalled network (close() still ends both).
    for (const s of [client, server]) {
      s.on('error', () => {});
      s.on('close', () => {
        if (!pair.frozen) drop();
      });
    }
  }

  /** Connections open now (both sides). */
  get connections(): number {
    return this.pairs.size;
  }

  /** Stops every open connection's bytes both ways, sockets left open; with `newOnes`, connections made from now on too. */
  freeze(options: { newOnes?: boolean } = {}): void {
    for (const pair of this.pairs) pair.frozen = true;
    this.freezeNew = options.newOnes === true;
  }

  /** Delivers what was held and forwards again. */
  resume(): void {
    this.freezeNew = false;
    for (const pair of this.pairs) {
      pair.frozen = false;
      for (const [to, chunk] of pair.held.splice(0)) to.write(chunk);
      if (pair.client.destroyed || pair.server.destroyed) {
        pair.client.destroy();
        pair.server.destroy();
        this.pairs.delete(pair);
      }
    }
  }

  /** Closes the proxy and every connection through it. */
  async close(): Promise<void> {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.server.destroy();
    }
    this.pairs.clear();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
