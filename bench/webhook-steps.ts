// The delivery worker's own steps, this build against another (`--versus DIR`, a checkout holding
// its own built dist/), both in this one process and alternating in short rounds, so that a shared
// machine's load falls on both alike: what bench:webhooks cannot tell apart under load, where a
// round's CPU per write moves by more than a webhook costs.
//
// Each build gets a store (SQLite in a directory of its own, or PostgreSQL in a schema prefix of its
// own with --store postgres) with one organization, one webhook and a backlog of deliveries, and its
// own WebhookSender to one receiver (a bare Node server in a child process). A round takes, for each
// build in turn, `--batches` batches of `--batch` deliveries as the worker does under a stream of
// writes: the bookkeeping (the outcomes of the batch before, then the claim of this one: `finish`
// and `claim`, a transaction each) and the attempts. It prints,
// per delivery, the process's CPU (user + system) of each part and the bookkeeping's wall time, and
// on PostgreSQL the CPU the database's processes spent in the bookkeeping.
//
// With --threaded the attempts go through each build's sender thread (ThreadedSender), as the server
// makes them, asked for a microtask apart as the worker's attempts are (each waits for its slot), and
// the attempt CPU is the process's, the thread's included; --gather MS pauses between batches, as the
// worker's gather does under a stream of writes (each batch then wakes the thread anew).
//
// Usage: node dist/bench/webhook-steps.js --versus DIR [--store sqlite|postgres] [--rounds 12] [--batches 40] [--batch 8]
//   [--one-moment] (the backlog's deliveries all due at one time, as a bulk import with a webhook makes them)
//   [--threaded] [--gather 0]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuBetween, cpuOfProcessesNamed, loadAverage, median, serveInChild } from './lib.js';
import { wholeOption } from './orchard-target.js';

const { values: opts } = parseArgs({
  options: {
    versus: { type: 'string' },
    store: { type: 'string', default: 'sqlite' },
    rounds: { type: 'string', default: '12' },
    batches: { type: 'string', default: '40' },
    batch: { type: 'string', default: '8' },
    'one-moment': { type: 'boolean', default: false },
    threaded: { type: 'boolean', default: false },
    gather: { type: 'string', default: '0' },
  },
});

const ORG = 'c1a30000-0000-4000-8000-000000000001';
const START = '2026-03-01T12:00:00';
/** Every delivery of the backlog is due by then. */
const DUE = Date.parse('2027-03-01T12:00:00Z');
const POLICY = { failures: 1_000, hours: 1_000 };

/** The parts of a build this bench drives, loosely typed: the two builds' types need not agree. */
interface Steps {
  readonly name: string;
  outbox: any;
  sender: any;
  close(): Promise<void>;
  prev: any[];
  readonly book: number[];
  readonly bookWall: number[];
  readonly send: number[];
  /** PostgreSQL: the database's processes' CPU in the bookkeeping, per delivery. */
  readonly db: number[];
}

const cpuMicros = (since: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(since);
  return d.user + d.system;
};

async function open(name: string, root: string, receiverUrl: string, deliveries: number, size: number, place: string): Promise<Steps> {
  const load = (file: string) => import(path.join(root, 'dist', 'src', file));
  const { WebhookSender } = await load('webhooks/sender.js');
  const { ThreadedSender } = await load('webhooks/sender-thread.js');
  let store: any;
  let end: () => Promise<void>;
  if (opts.store === 'postgres') {
    const { createPool } = await load('store/postgres/pg-db.js');
    const { PostgresRecordStore } = await load('store/postgres/postgres-record-store.js');
    const pool = createPool(process.env.DATABASE_URL!, { max: 4 });
    store = new PostgresRecordStore(pool, { schemaPrefix: place });
    end = async () => {
      await store.close();
      await pool.query(`DROP SCHEMA IF EXISTS ${place}${ORG.replace(/-/g, '')} CASCADE`);
      await pool.end();
    };
  } else {
    const { SqliteRecordStore } = await load('store/sqlite/sqlite-record-store.js');
    store = new SqliteRecordStore(place, {});
    end = async () => {
      await store.close();
      fs.rmSync(place, { recursive: true, force: true });
    };
  }
  const records = await store.org(ORG);
  await records.webhooks.add({
    id: 'c1a30000-0000-4000-8000-0000000000aa', event: 'created', objectType: null, url: `${receiverUrl}/hook`, method: 'POST', filter: null,
    headers: {}, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', createdAt: '2026-03-01T12:00:00.000Z',
  });
  const account = (await records.schema()).resolve('account');
  // A second of the organization's clock a batch, as a stream of writes spreads them; with
  // --one-moment the whole backlog at one time, as an import makes it.
  for (let start = 0, second = 0; start < deliveries; start += size, second += opts['one-moment'] ? 0 : 1) {
    const at = new Date(Date.parse(`${START}Z`) + second * 1000).toISOString().slice(0, 19);
    const rows = [];
    for (let i = start; i < Math.min(deliveries, start + size); i++) {
      const row: Record<string, unknown> = {};
      for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
      rows.push({ ...row, accountid: `c1a30000-0000-4000-8000-${String(i).padStart(12, '0')}`, accountname: `Bench account ${i}`, telephone1: '+1 555 0100', statecode: 0, statuscode: 1, createdon: at, modifiedon: at });
    }
    await store.bulkInsert(ORG, account, rows, { userId: null, at });
  }
  const senderOptions = { timeoutMs: 10_000, allowPrivate: true, userAgent: 'Orchard-Webhooks/bench' };
  const sender = opts.threaded ? new ThreadedSender(senderOptions) : new WebhookSender(senderOptions);
  return { name, outbox: records.webhooks, sender, prev: [], book: [], bookWall: [], send: [], db: [], close: async () => { sender.close(); await end(); } };
}

/** The attempts of a batch: at once, or (--threaded) each a microtask after the one before, as the worker asks for them. */
async function attempts(s: Steps, claimed: any[]): Promise<any[]> {
  const nowSeconds = Math.floor(Date.now() / 1000);
  if (!opts.threaded) return Promise.all(claimed.map((d) => s.sender.send(d, nowSeconds)));
  const pending = [];
  for (const d of claimed) {
    await Promise.resolve();
    pending.push(s.sender.send(d, nowSeconds));
  }
  return Promise.all(pending);
}

/** `batches` batches of `size` on `s`; adds the CPU and wall time per delivery of its parts. */
async function round(s: Steps, batches: number, size: number, gatherMs: number): Promise<void> {
  let book = 0;
  let wall = 0;
  let send = 0;
  let db = 0;
  let count = 0;
  const postgres = opts.store === 'postgres';
  for (let b = 0; b < batches; b++) {
    const request = { dueMs: DUE, realMs: Date.now(), leaseMs: 60_000, limit: size };
    // Read outside the bookkeeping's own CPU and wall time.
    const dbStart = postgres ? cpuOfProcessesNamed('postgres') : undefined;
    const cpu = process.cpuUsage();
    const started = performance.now();
    if (s.prev.length > 0) await s.outbox.finish(s.prev, POLICY);
    const claimed: any[] = await s.outbox.claim(request);
    wall += performance.now() - started;
    book += cpuMicros(cpu);
    if (dbStart) db += cpuBetween(dbStart, cpuOfProcessesNamed('postgres'));
    if (claimed.length === 0) throw new Error(`${s.name}: the backlog ran out`);
    const sending = process.cpuUsage();
    const outcomes = await attempts(s, claimed);
    send += cpuMicros(sending);
    // Outside the readings: only the wake-ups it brings about count.
    if (gatherMs > 0) await new Promise((resolve) => setTimeout(resolve, gatherMs));
    count += claimed.length;
    s.prev = claimed.map((d, i) => ({
      row: d.row, id: d.id, webhookId: d.webhook.id, ok: outcomes[i].ok, status: outcomes[i].status, error: outcomes[i].error,
      durationMs: outcomes[i].durationMs, response: outcomes[i].response, atMs: DUE, retryAtMs: outcomes[i].ok ? null : DUE + 60_000,
    }));
    if (!outcomes.every((o: { ok: boolean }) => o.ok)) throw new Error(`${s.name}: an attempt failed: ${outcomes.find((o: { ok: boolean }) => !o.ok).error}`);
  }
  s.book.push(book / count);
  s.bookWall.push((wall * 1000) / count);
  s.send.push(send / count);
  if (postgres) s.db.push(db / count);
}

async function main(): Promise<void> {
  if (!opts.versus) throw new Error('--versus DIR is needed: the build to compare this one with.');
  if (opts.store === 'postgres' && !process.env.DATABASE_URL) throw new Error('--store postgres needs DATABASE_URL.');
  const rounds = wholeOption(opts, 'rounds', 1);
  const batches = wholeOption(opts, 'batches', 1);
  const size = wholeOption(opts, 'batch', 1);
  const gatherMs = wholeOption(opts, 'gather', 0);
  const self = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const other = path.resolve(opts.versus);
  console.log(`Store: ${opts.store}; ${rounds} rounds of ${batches} batches of ${size}${gatherMs > 0 ? ` ${gatherMs} ms apart` : ''}${opts.threaded ? ', attempts on the sender thread' : ''}, this build and --versus ${opts.versus} in turn; load average at the start: ${loadAverage()}`);
  const receiver = await serveInChild('receiver', path.join(self, 'dist', 'bench', 'webhooks.js'), ['--serve', 'receiver']);
  const builds: Steps[] = [];
  try {
    const owed = (rounds + 1) * batches * size + size;
    for (const [i, [name, root]] of ([['this', self], ['versus', other]] as const).entries()) {
      const place = opts.store === 'postgres' ? `whsteps_${process.pid}_${i}_` : fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-steps-'));
      builds.push(await open(name, root, receiver.url, owed, size, place));
    }
    // A round of each first, not counted: the JIT, the named statements, the connections.
    for (const s of builds) await round(s, batches, size, gatherMs);
    for (const s of builds) for (const list of [s.book, s.bookWall, s.send, s.db]) list.length = 0;
    for (let r = 0; r < rounds; r++) {
      for (const s of r % 2 === 0 ? builds : [...builds].reverse()) await round(s, batches, size, gatherMs);
    }
    const show = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
    for (const s of builds) {
      console.log(`${s.name.padEnd(6)}  per delivery: bookkeeping CPU ${median(s.book).toFixed(1)} µs (${show(s.book)}), wall ${median(s.bookWall).toFixed(0)} µs; attempt CPU ${median(s.send).toFixed(1)} µs (${show(s.send)})${s.db.length > 0 ? `; the database's CPU in the bookkeeping ${median(s.db).toFixed(1)} µs (${show(s.db)})` : ''}`);
    }
    const [mine, theirs] = builds as [Steps, Steps];
    const ratio = (a: number[], b: number[]) => a.map((x, i) => x / b[i]!);
    for (const [what, a, b] of [['bookkeeping CPU', mine.book, theirs.book], ['bookkeeping wall', mine.bookWall, theirs.bookWall], ['attempt CPU', mine.send, theirs.send], ...(mine.db.length > 0 ? [['database CPU in the bookkeeping', mine.db, theirs.db] as const] : [])] as const) {
      const rs = ratio(a, b);
      console.log(`${what}, this / versus by round: ${rs.map((x) => `×${x.toFixed(2)}`).join(' ')} (median ×${median(rs).toFixed(3)})`);
    }
    console.log(`load average at the end: ${loadAverage()}`);
  } finally {
    for (const s of builds) await s.close();
    await receiver.stop();
  }
}

await main();
