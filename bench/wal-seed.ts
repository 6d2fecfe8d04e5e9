// The write-ahead log of an organization's file while `orchard seed` fills it beside a running
// server that takes a write of its own every 100 ms: the size of `<org>.db-wal`, sampled every
// 50 ms from before the seed starts until 2 s after it ends, then after the server stops. Prints
// the largest size, the size when the seed ended and 2 s later, how long the seed took, and the
// server's replies to its writes (201, or 503 STORE_BUSY when a seed batch held the lock too long).
//
// The server and the seed are the real command (`bin/orchard.js`, in processes of their own);
// `--root DIR` runs another build's (DIR holds its bin/, dist/, package.json and node_modules).
//
// Usage: node dist/bench/wal-seed.js [--count 200000] [--every 100] [--sample 50] [--root DIR]
// Exits 1 if a write of the server failed otherwise than 503, or the seed failed.

import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { wholeOption } from './orchard-target.js';

const { values: opts } = parseArgs({
  options: {
    count: { type: 'string', default: '200000' },
    every: { type: 'string', default: '100' },
    sample: { type: 'string', default: '50' },
    root: { type: 'string' },
  },
});

const root = opts.root ? path.resolve(opts.root) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ORCHARD = path.join(root, 'bin', 'orchard.js');
const MB = 1024 * 1024;

/** Runs an orchard command to its end with --json; its one JSON object. */
function orchard(dataDir: string, args: readonly string[]): Record<string, unknown> {
  return JSON.parse(execFileSync(process.execPath, [ORCHARD, '--data-dir', dataDir, '--json', ...args], { encoding: 'utf8' })) as Record<string, unknown>;
}

/** `orchard serve` on a free port; resolves with its URL once it listens. */
function serve(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [ORCHARD, '--data-dir', dataDir, '--json', 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`orchard serve exited (code ${code}) before it listened`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ url: (JSON.parse(line) as { url: string }).url, child }));
  });
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

async function main(): Promise<number> {
  const count = wholeOption(opts, 'count', 1);
  const every = wholeOption(opts, 'every', 1);
  const sampleMs = wholeOption(opts, 'sample', 1);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-wal-'));
  let server: ChildProcess | undefined;
  try {
    const org = orchard(dataDir, ['org', 'create', '--name', 'WAL bench', '--plan', 'enterprise', '--email', 'wal@example.com', '--minute-limit', '1000000']);
    const wal = path.join(dataDir, 'orgs', `${org.id as string}.db-wal`);
    const started = await serve(dataDir);
    server = started.child;

    let largest = 0;
    const sampler = setInterval(() => {
      largest = Math.max(largest, sizeOf(wal));
    }, sampleMs);
    const replies = new Map<string, number>();
    let n = 0;
    const writer = setInterval(() => {
      void fetch(`${started.url}/api/record/account`, {
        method: 'POST',
        headers: { tokenid: org.token as string, 'content-type': 'application/json' },
        body: JSON.stringify({ accountname: `Beside the seed ${++n}` }),
      }).then(async (res) => {
        await res.arrayBuffer();
        return String(res.status);
      }, (err: unknown) => `error ${(err as Error).message}`).then((status) => replies.set(status, (replies.get(status) ?? 0) + 1));
    }, every);

    const seedStarted = Date.now();
    const seed = spawn(process.execPath, [ORCHARD, '--data-dir', dataDir, '--json', 'seed', '--org', org.id as string, '--count', String(count)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const seedCode = await new Promise<number | null>((resolve) => seed.once('exit', resolve));
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const atSeedEnd = sizeOf(wal);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    clearInterval(writer);
    clearInterval(sampler);
    const twoSecondsLater = sizeOf(wal);
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
    server = undefined;

    console.log(`Build: ${root}; Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`orchard seed --count ${count.toLocaleString('en-US')}: ${seedSeconds.toFixed(1)} s (exit ${seedCode}), beside a server taking a POST every ${every} ms; the WAL sampled every ${sampleMs} ms.`);
    console.log(`WAL largest ${(largest / MB).toFixed(1)} MB; when the seed ended ${(atSeedEnd / MB).toFixed(1)} MB; 2 s later ${(twoSecondsLater / MB).toFixed(1)} MB; after the server stopped ${(sizeOf(wal) / MB).toFixed(1)} MB.`);
    console.log(`The server's writes: ${[...replies].map(([status, k]) => `${k} × ${status}`).join(', ')}.`);
    const failed = seedCode !== 0 || [...replies.keys()].some((status) => status !== '201' && status !== '503');
    return failed ? 1 : 0;
  } finally {
    server?.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
