// PostgreSQL stalling under a running `orchard serve` (bytes stop, sockets stay open), played by a
// TCP proxy the test freezes in front of the shared server: the cache listener's loss is logged, a
// request in flight is cut at the time limit, and SIGTERM still stops the process within seconds.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { BIN, childEnv } from '../cli/cli-runner.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import { TcpProxy } from '../tcp-proxy.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('orchard serve whose PostgreSQL stalls', { skip: needsPostgres }, () => {
  let dir: string;
  let schema: string;
  let proxy: TcpProxy;
  let child: ChildProcess | undefined;
  let log = '';

  /** Waits until the log holds `text`; fails past `ms`. */
  const logged = async (text: string, ms: number) => {
    const started = Date.now();
    while (!log.includes(text)) {
      assert.ok(Date.now() - started < ms, `no "${text}" after ${ms} ms:\n${log}`);
      await sleep(50);
    }
  };

  before(async () => {
    dir = tempDir('orchard-stall-');
    schema = uniqueName('stall');
    proxy = await TcpProxy.start(TcpProxy.targetOf(DATABASE_URL!));
  });

  after(async () => {
    child?.kill('SIGKILL');
    await proxy.close();
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    await dropSchemas(pool, schema);
    await pool.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('stops within seconds of SIGTERM while PostgreSQL stalls, saying so in the log', async () => {
    const env = { ...childEnv, DATABASE_URL: TcpProxy.urlThrough(DATABASE_URL!, proxy), DATABASE_SCHEMA: schema, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info', REQUEST_TIMEOUT_MS: '2000' };
    const served = spawn(process.execPath, [BIN, '--json', 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = served;
    const exited = new Promise<number | null>((resolve) => served.on('exit', resolve));
    served.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d));
    const first = await new Promise<string>((resolve, reject) => {
      let out = '';
      served.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      served.on('exit', (code) => reject(new Error(`orchard serve exited with ${code}: ${log}`)));
    });
    const { url, demo } = JSON.parse(first) as { url: string; demo: { token: string } };
    const get = () => fetch(`${url}/api/record/account?pagesize=1`, { headers: { tokenid: demo.token } });
    // Served, and from memory once the listener vouches for it: the pool and the listener are connected.
    for (let i = 0; i < 5; i++) assert.equal((await get()).status, 200);
    await sleep(500);

    proxy.freeze({ newOnes: true });
    const inFlight = get();
    await logged('Cache listener lost', 6_000);
    assert.equal((await inFlight).status, 408, 'cut at the time limit');

    const signalled = Date.now();
    served.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(12_000).then(() => 'still running')]);
    assert.equal(code, 0, `exit within 12 s of SIGTERM:\n${log}`);
    const ms = Date.now() - signalled;
    assert.ok(ms < 10_000, `${ms} ms:\n${log}`);
    const lines = log.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { level: number; msg: string });
    assert.ok(lines.some((l) => l.msg.startsWith('SIGTERM received')), log);
    assert.ok(lines.some((l) => l.level === 40 && l.msg.startsWith('PostgreSQL did not answer')), log);
    assert.equal(lines.at(-1)!.msg, 'Orchard stopped', log);
    if (process.env.SHOW_LOG) console.log(log);
  });
});
