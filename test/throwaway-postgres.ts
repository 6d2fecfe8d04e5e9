// A PostgreSQL cluster of a test's own (initdb in a temporary directory, pg_ctl on a spare port),
// which the test may stop with `-m immediate` (as a crash would) and start again: the shared
// server at DATABASE_URL must never be stopped. Runs as the postgres user when the test is root,
// as initdb refuses root.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sparePort } from './throwaway-redis.js';

/** The directory of initdb and pg_ctl: the newest installed version. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (fs.existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  return ''; // on PATH
}

/** Whether a throwaway cluster can be made here (initdb present). */
export function canMakeCluster(): boolean {
  try {
    execFileSync(path.join(binDir(), 'initdb'), ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export class ThrowawayPostgres {
  private constructor(readonly dir: string, readonly port: number) {}

  private static run(tool: string, args: string[]): void {
    const bin = path.join(binDir(), tool);
    const asRoot = process.getuid?.() === 0;
    execFileSync(asRoot ? 'runuser' : bin, asRoot ? ['-u', 'postgres', '--', bin, ...args] : args, { stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /** Makes and starts a cluster (trust auth, user postgres, database postgres) on a spare port. */
  static async start(): Promise<ThrowawayPostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-pg-'));
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
    ThrowawayPostgres.run('initdb', ['-D', path.join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C.UTF-8']);
    const cluster = new ThrowawayPostgres(dir, await sparePort());
    cluster.startAgain();
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Starts the stopped cluster; returns once it accepts connections. */
  startAgain(): void {
    ThrowawayPostgres.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-w', '-l', path.join(this.dir, 'log'),
      '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  }

  /** Stops at once, without a clean shutdown: connections drop as in a crash. */
  stopImmediately(): void {
    ThrowawayPostgres.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-w', '-m', 'immediate', 'stop']);
  }

  /** Stops the cluster (if running) and removes its files. */
  destroy(): void {
    try {
      this.stopImmediately();
    } catch {
      // already stopped
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
