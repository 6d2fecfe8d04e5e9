// The per-organization gate: a change of an organization's whole state waits for its requests under
// way, holds those that arrive meanwhile, and leaves other organizations alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrgGate } from '../../src/service/org-gate.js';

/** A promise and the function that settles it. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Incarnations of organizations 'a' and 'b'. */
const A = { id: 'a', createdAt: '2026-01-01T00:00:00.000Z' };
const B = { id: 'b', createdAt: '2026-01-01T00:00:00.000Z' };

test('a change waits for the requests under way; requests arriving meanwhile wait for it; other organizations go on', async () => {
  const gate = new OrgGate();
  const log: string[] = [];
  const first = latch();
  const r1 = gate.shared(A, async () => {
    log.push('r1 start');
    await first.promise;
    log.push('r1 end');
  });
  await tick();
  const change = gate.exclusive('a', async () => {
    log.push('change');
    await tick();
    log.push('change end');
  });
  await tick();
  const r2 = gate.shared(A, async () => log.push('r2'));
  const other = gate.shared(B, async () => log.push('other org'));
  await other;
  await tick();
  assert.deepEqual(log, ['r1 start', 'other org'], 'neither the change nor the later request ran while r1 was under way');
  first.open();
  await Promise.all([r1, change, r2]);
  assert.deepEqual(log, ['r1 start', 'other org', 'r1 end', 'change', 'change end', 'r2']);
});

test('two changes of one organization run one after the other; a failed one releases the requests', async () => {
  const gate = new OrgGate();
  const log: string[] = [];
  const c1 = gate.exclusive('a', async () => {
    log.push('c1');
    await tick();
    throw new Error('c1 failed');
  });
  const c2 = gate.exclusive('a', async () => log.push('c2'));
  const r = gate.shared(A, async () => log.push('r'));
  await assert.rejects(c1, /c1 failed/);
  await Promise.all([c2, r]);
  assert.equal(log[0], 'c1');
  assert.deepEqual(log.slice(1).sort(), ['c2', 'r']);
  assert.equal(await gate.shared(A, async () => 'after'), 'after');
});

test('a request whose incarnation is no longer current fails before its work, counted as under way (a change waits for the question); others go on', async () => {
  const current = new Set([`${A.id} ${A.createdAt}`, `${B.id} ${B.createdAt}`]);
  const asked = latch();
  const answer = latch();
  const gate = new OrgGate(async (org) => {
    asked.open();
    await answer.promise;
    return current.has(`${org.id} ${org.createdAt}`);
  });
  const log: string[] = [];
  // Admitted for the old incarnation; its question is under way when the delete comes.
  const old = gate.shared(A, async () => log.push('old wrote'));
  await asked.promise;
  const del = gate.exclusive('a', async () => log.push('deleted'));
  await tick();
  assert.deepEqual([...log], [], 'the delete waits for the request asking');
  current.delete(`${A.id} ${A.createdAt}`);
  answer.open();
  await assert.rejects(old, (err: { code?: string; message?: string }) => err.code === 'TOKEN_INVALID' && /deleted while the request was under way/.test(err.message ?? ''));
  await del;
  await assert.rejects(gate.shared(A, async () => log.push('old again')), { code: 'TOKEN_INVALID' });
  const again = { id: 'a', createdAt: '2026-01-01T00:00:01.000Z' };
  current.add(`${again.id} ${again.createdAt}`);
  assert.equal(await gate.shared(again, async () => 'new'), 'new');
  assert.equal(await gate.shared(B, async () => 'other'), 'other');
  assert.deepEqual(log, ['deleted']);
});
