// The mark an organization carries while a fixtures load makes it (docs/fixtures.md): which process
// loads it, so that a later load tells a load under way from one whose process was killed.

import fs from 'node:fs';
import os from 'node:os';
import type { FixtureLoadState } from './types.js';

/** The boot of this machine, as Linux names it (undefined elsewhere). */
function bootId(): string | undefined {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * When process `pid` started, in clock ticks since the boot, as Linux's /proc tells it; undefined
 * when it does not (another system, no such process, or one /proc hides: kill(pid, 0) then decides).
 */
function processStart(pid: number | 'self'): string | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // After the command's name in parentheses (which may hold either), field 22 is the 20th.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/**
 * This process, as the mark names its loader: host and pid, and where Linux tells them the boot and
 * when the process started, so that a pid taken since by another program (after a reboot, in a
 * container started anew) is not taken for the loader.
 */
export function loaderMark(): string {
  return JSON.stringify({ host: os.hostname(), pid: process.pid, boot: bootId(), start: processStart('self') });
}

/**
 * What a mark says when the caller holds the organization's load lock of this process: no load of
 * this process is under way, so a mark of this pid (a load that failed and could not remove the
 * organization, or one of an earlier process given the same pid) is abandoned, as is one of another
 * host (a data directory moved, a container made anew), of another boot, of a pid no process has
 * any more, or of one a process started at another time than the loader has now (Linux).
 */
export function markState(mark: string | null): FixtureLoadState {
  if (mark === null) return 'none';
  let loader: { host?: unknown; pid?: unknown; boot?: unknown; start?: unknown };
  try {
    loader = JSON.parse(mark) as typeof loader;
  } catch {
    return 'abandoned';
  }
  if (loader.host !== os.hostname() || typeof loader.pid !== 'number' || loader.pid === process.pid) return 'abandoned';
  const boot = bootId();
  if (typeof loader.boot === 'string' && boot !== undefined && loader.boot !== boot) return 'abandoned';
  const start = processStart(loader.pid);
  if (typeof loader.start === 'string' && start !== undefined && loader.start !== start) return 'abandoned';
  try {
    process.kill(loader.pid, 0);
    return 'live';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'live' : 'abandoned';
  }
}

/** One holder at a time per key within this process; returns the release. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(key: string): Promise<() => Promise<void>> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => held);
    this.tails.set(key, tail);
    await before;
    return async () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
