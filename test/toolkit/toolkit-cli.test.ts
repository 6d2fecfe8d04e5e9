// The orchard commands of the integrator's tools (clock, fault, journal, outbox, usage) against a listening
// server, through its control API: --json prints the API's reply; failures carry its codes.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { runCli } from '../../src/cli.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { tempDir } from '../helpers.js';
import { oneJsonObject } from '../cli/cli-runner.js';
import { ADMIN_KEY } from './control-helpers.js';

describe('orchard clock, fault, journal, outbox and usage', () => {
  let dir: string;
  let server: RunningServer;
  before(async () => {
    dir = tempDir('orchard-toolkit-cli-');
    server = await startServer(loadConfig({}, { dataDir: dir, port: 0, logLevel: 'silent', adminKey: ADMIN_KEY, journalSize: 10 }), () => {});
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `orchard --json …` with ADMIN_KEY and ORCHARD_URL pointing at the server. */
  const cli = async (args: string[], env: NodeJS.ProcessEnv = { ADMIN_KEY, ORCHARD_URL: server.url }) => {
    let stdout = '';
    const output = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } };
    const code = await runCli(['--json', ...args], { env, output });
    return { code, body: oneJsonObject({ code, stdout, stderr: '' }) as Record<string, any> };
  };
  const org = () => server.demo!.orgId;
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { tokenid: server.demo!.token } });

  test('clock: freeze, advance, show, real', async () => {
    const frozen = await cli(['clock', 'freeze', '--org', org(), '--at', '2030-05-05T05:05:05Z']);
    assert.equal(frozen.code, 0);
    assert.deepEqual([frozen.body.orgId, frozen.body.mode, frozen.body.now], [org(), 'frozen', '2030-05-05T05:05:05.000Z']);
    assert.equal((await cli(['clock', 'advance', '--org', org(), '--by', '1d'])).body.now, '2030-05-06T05:05:05.000Z');
    const res = await get('/api/record/account?pagesize=1');
    assert.equal(res.status, 200);
    const shown = await cli(['clock', 'show']);
    assert.deepEqual(shown.body.items.map((c: { orgId: string | null }) => c.orgId), [null, org()]);
    assert.equal((await cli(['clock', 'set', '--at', '2031-01-01T00:00:00Z', '--frozen'])).body.now, '2031-01-01T00:00:00.000Z');
    assert.equal((await cli(['clock', 'real'])).body.mode, 'real');
    assert.equal((await cli(['clock', 'real', '--org', org()])).body.mode, 'real');
  });

  test('fault: add, list, remove, clear', async () => {
    const added = await cli(['fault', 'add', '--org', org(), '--status', '503', '--method', 'GET', '--family', 'records', '--count', '1']);
    assert.equal(added.code, 0, JSON.stringify(added.body));
    assert.deepEqual([added.body.status, added.body.methods, added.body.families, added.body.remaining], [503, ['GET'], ['records'], 1]);
    assert.equal((await get('/api/record/account')).status, 503);
    assert.deepEqual((await cli(['fault', 'list'])).body, { items: [] });
    const rule = (await cli(['fault', 'add', '--latency', '1', '--probability', '0.5', '--seed', '3'])).body;
    assert.equal((await cli(['fault', 'list', '--org', org()])).body.items.length, 0, 'a rule for any organization is nobody\'s own');
    let text = '';
    await runCli(['fault', 'list'], { env: { ADMIN_KEY, ORCHARD_URL: server.url }, output: { stdout: { write: (t: string) => (text += t) }, stderr: { write: () => true } } });
    assert.equal(text, `${rule.id}  +1 ms  any org  p=0.5 seed 3  matched 0, fired 0\n`, 'the text shows how often it matched and fired');
    assert.deepEqual((await cli(['fault', 'remove', '--id', rule.id])).body, { removed: rule.id });
    const gone = await cli(['fault', 'remove', '--id', rule.id]);
    assert.equal(gone.code, 1);
    assert.equal(gone.body.error.code, 'FAULT_RULE_NOT_FOUND');
    const bad = await cli(['fault', 'add', '--status', '502']);
    assert.equal(bad.body.error.code, 'BODY_INVALID');
    // The message names the options typed, not the rule's members they set (docs/operations.md,
    // Exit status and error codes): these named latencyMs, body.retryAfter, body.window, families.0.
    const refused = async (args: string[]) => (await cli(['fault', 'add', ...args])).body.error.message as string;
    assert.equal(await refused(['--latency', '99999999']), 'The request body is invalid: --latency must be a whole number from 0 to 3600000; got 99999999. Check your data.');
    assert.equal(await refused(['--status', '500', '--retry-after', '3']), 'The fault rule is invalid: --retry-after is for status 429 or 503 only.');
    assert.equal(await refused(['--status', '500', '--window', 'day']), 'The fault rule is invalid: --window is for status 429 only.');
    assert.match(await refused(['--status', '500', '--family', 'records,nope']), /^The request body is invalid: --family #2 must be one of "records", /);
    await cli(['fault', 'add', '--status', '500']);
    assert.deepEqual((await cli(['fault', 'clear'])).body, { removed: 1 });
  });

  test('journal and outbox: list and clear', async () => {
    await get('/metadata/records');
    const listed = await cli(['journal', 'list', '--org', org(), '--path', 'metadata', '--limit', '1']);
    assert.deepEqual(listed.body.items.map((e: { path: string; status: number }) => `${e.path} ${e.status}`), ['/metadata/records 200']);
    assert.deepEqual((await cli(['journal', 'clear', '--org', org()])).body, { cleared: true });
    assert.deepEqual((await cli(['journal', 'list', '--org', org()])).body.items, []);
    assert.deepEqual((await cli(['outbox', 'list', '--org', org()])).body, { items: [] });
    assert.deepEqual((await cli(['outbox', 'clear', '--org', org()])).body, { cleared: true });
  });

  test('usage: the organization\'s windows and days as the control API gives them, the reads counting nothing', async () => {
    await get('/api/record/account?pagesize=1');
    const first = await cli(['usage', '--org', org()]);
    assert.equal(first.code, 0);
    assert.equal(first.body.counted, true);
    assert.ok(first.body.minute.used >= 1);
    assert.equal(first.body.days.length, 30);
    const again = await cli(['usage', '--org', org()]);
    assert.equal(again.body.day.used, first.body.day.used, 'reading it counted nothing');
    let text = '';
    await runCli(['usage', '--org', org()], { env: { ADMIN_KEY, ORCHARD_URL: server.url }, output: { stdout: { write: (t: string) => (text += t) }, stderr: { write: () => true } } });
    assert.match(text, /^Minute: \d+ of 100 \(quota back in \d+ s\)\nDay \d{4}-\d\d-\d\d: \d+ of 500/);
  });

  test('--json prints the control API\'s whole reply, to the byte: the clocks, the fault rules, the journal with its size and body limit, the outbox, the usage', async () => {
    await cli(['clock', 'freeze', '--at', '2030-01-01T00:00:00Z']);
    await cli(['clock', 'freeze', '--org', org(), '--at', '2030-05-05T05:05:05Z']);
    await cli(['fault', 'add', '--org', org(), '--latency', '1', '--seed', '5']);
    await get('/api/record/nothing?pagesize=1');
    // Both clocks frozen: only a clock's offset from real time moves between the two reads.
    const offsetless = (text: string) => text.replace(/"offsetMs":-?\d+/g, '"offsetMs":0');
    const reply = async (path: string) => offsetless(await (await fetch(`${server.url}/_orchard/${path}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).text());
    const printed = async (args: string[]) => {
      let text = '';
      await runCli(['--json', ...args], { env: { ADMIN_KEY, ORCHARD_URL: server.url }, output: { stdout: { write: (t: string) => (text += t) }, stderr: { write: () => true } } });
      return offsetless(text);
    };
    const orgPath = `organizations/${org()}`;
    try {
      for (const [args, path] of [
        [['clock', 'show'], 'clocks'],
        [['clock', 'show', '--org', org()], `${orgPath}/clock`],
        [['fault', 'list', '--org', org()], `faults?orgId=${org()}`],
        [['journal', 'list', '--org', org(), '--status', '4xx', '--limit', '1'], `${orgPath}/journal?status=4xx&limit=1`],
        [['outbox', 'list', '--org', org()], `${orgPath}/outbox`],
        [['usage', '--org', org()], `${orgPath}/usage`],
      ] as const) {
        const expected = `${await reply(path)}\n`;
        assert.equal(await printed([...args]), expected, args.join(' '));
      }
      assert.match(await printed(['journal', 'list', '--org', org()]), /"size":10,"bodyLimit":\d+\}\n$/, 'the journal\'s size and body limit are printed');
    } finally {
      await cli(['fault', 'clear']);
      await cli(['clock', 'real', '--org', org()]);
      await cli(['clock', 'real']);
    }
  });

  test('without ADMIN_KEY, or with no server, the commands say what is missing', async () => {
    assert.equal((await cli(['clock', 'show'], { ORCHARD_URL: server.url })).body.error.code, 'ADMIN_KEY_MISSING');
    assert.equal((await cli(['fault', 'list', '--url', 'http://127.0.0.1:9'], { ADMIN_KEY })).body.error.code, 'UNREACHABLE');
  });
});
