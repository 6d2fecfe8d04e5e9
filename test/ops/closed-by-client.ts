// Checks shared by the tests of requests whose client goes away before the reply ends (docs/operations.md
// § Logs and § Metrics, docs/control-api.md § Journal): one info line with status 499, no warning or
// error, counted under 499, and in the request journal under 499.

import assert from 'node:assert/strict';
import { loggerOptions } from '../../src/http/log-options.js';
import { captureLog, eventually, logEntries, metricSample, type TestContext, type TestContextOptions } from '../helpers.js';
import { ADMIN_KEY, control } from '../toolkit/control-helpers.js';

/**
 * A test context whose JSON log, from debug up, is kept and read with `entries`, with the request
 * journal on (journalEntries) and the control API's key; `context` keeps the config it is given.
 */
export async function loggedContext(context: (options: TestContextOptions) => Promise<TestContext>): Promise<{ ctx: TestContext; entries: () => Array<Record<string, any>> }> {
  const log = captureLog();
  const ctx = await context({ logger: loggerOptions({ level: 'debug', format: 'json', stream: log }), config: { adminKey: ADMIN_KEY, journalSize: 20 } });
  return { ctx, entries: () => logEntries(log.lines) };
}

/**
 * Waits until the request at `path` is logged as closed by its client and its work has stopped,
 * then checks it was logged once (info, status 499), that nothing in the log is a warning or an
 * error, and that the metrics count it under 499 and count no 5xx.
 */
export async function assertClosedByClient(ctx: TestContext, entries: () => Array<Record<string, any>>, method: string, path: string): Promise<void> {
  const incoming = () => entries().find((e) => e.msg === 'incoming request' && e.req.url === path);
  const logged = () => entries().filter((e) => e.reqId === incoming()?.reqId).map((e) => `${e.level} ${e.msg}${e.err ? ` (${e.err.message})` : ''}`);
  await eventually(() => entries().some((e) => e.msg === 'client closed request' && e.reqId === incoming()?.reqId),
    () => `the request logged as closed by its client; its lines: ${JSON.stringify(logged())}`);
  const reqId = incoming()!.reqId;
  const stopped = () => entries().filter((e) => e.reqId === reqId && e.msg === 'work of a closed request stopped');
  await eventually(() => stopped().length > 0, 'the request\'s work stopped');
  assert.equal(stopped().length, 1, 'its work stops once');
  const lines = entries().filter((e) => e.reqId === reqId && e.level >= 30);
  assert.deepEqual(lines.map((e) => [e.level, e.msg, e.res?.statusCode]), [[30, 'incoming request', undefined], [30, 'client closed request', 499]]);
  assert.deepEqual(entries().filter((e) => e.level >= 40), []);
  const metrics = (await ctx.request({ method: 'GET', url: '/metrics', token: null })).body;
  assert.equal(metricSample(metrics, `orchard_http_request_duration_seconds_count{family="records",method="${method}",status="499"}`), 1);
  assert.doesNotMatch(metrics, /status="5\d\d"/);
  assert.deepEqual(await journalEntries(ctx, path), [{ method, status: 499 }], 'the journal keeps it, under 499');
}

/** The requests of the context's organization to `path` (without its query) that the journal holds: method and status. */
export async function journalEntries(ctx: TestContext, path: string): Promise<Array<{ method: string; status: number }>> {
  const { items } = await control(ctx, 'GET', `/organizations/${ctx.orgId}/journal`);
  return items.filter((e: { path: string }) => e.path === path.split('?')[0]).map((e: { method: string; status: number }) => ({ method: e.method, status: e.status }));
}
