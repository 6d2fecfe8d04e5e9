// The mark an organization carries while a fixtures load makes it (docs/fixtures.md): which process
// loads it, so that a later load tells a load under way from one whose process was killed.

import os from 'node:os';
import type { FixtureLoadState } from './types.js';

/** This process, as the mark names its loader. */
export function loaderMark(): string {
  return JSON.stringify({ host: os.hostname(), pid: process.pid });
}

/**
 * What a mark says when the caller holds the organization's load lock of this process: no load of
 * this process is under way, so a mark of this pid (a load that failed and could not remove the
 * organization, or one of an earlier process given the same pid) is abandoned, as is one of another
 * host (a data directory moved, a container made anew) or of a pid no process has any more.
 */
export function markState(mark: string | null): FixtureLoadState {
  if (mark === null) return 'none';
  let loader: { host?: unknown; pid?: unknown };
  try {
    loader = JSON.parse(mark) as typeof loader;
  } catch {
    return 'abandoned';
  }
  if (loader.host !== os.hostname() || typeof loader.pid !== 'number' || loader.pid === process.pid) return 'abandoned';
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

/** At most `size` holders at once; take() resolves to the release of the slot taken. */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
