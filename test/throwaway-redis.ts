// A redis-server of a test's own, on a spare port, that the test may kill and start again (the
// shared Redis at REDIS_URL must never be stopped). Nothing is saved: a restart starts empty.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';

/** A port nothing listens on right now. */
export async function sparePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class ThrowawayRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  /** Starts a server on a spare port; resolves once it accepts connections. */
  static async start(): Promise<ThrowawayRedis> {
    const server = new ThrowawayRedis(await sparePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** (Re)starts the server on its port. */
  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', os.tmpdir()], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`redis-server exited with ${code} before it was ready:\n${out}`)));
      child.on('error', reject);
    });
  }

  /** Kills the server at once (as a crash or a lost host would), and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** Freezes or resumes the server: it keeps its connections but answers nothing while stopped. */
  pause(paused: boolean): void {
    this.child?.kill(paused ? 'SIGSTOP' : 'SIGCONT');
  }
}

/** The `skip` option of a suite that starts its own redis-server: false when the binary is here. */
export const needsRedisServer: false | string = spawnSync('redis-server', ['--version']).status === 0
  ? false
  : 'redis-server is not installed: the suite that kills its own Redis is skipped';
