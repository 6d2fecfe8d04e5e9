// A model-based test of every rate-limit store (fast-check commands): random hits by random keys
// under random quotas, a clock that jumps across minute boundaries and midnight UTC, and restarts,
// each hit compared with a plain reference model — the list of accepted instants per key and a
// count per key and UTC day (a restart rounds the instants as the store's capability says).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { HitResult, Quotas, RateLimitStore } from '../../src/limits/rate-limit-store.js';
import { TestClock } from '../helpers.js';
import { STORE_KINDS, type StoreKind } from './stores.js';

const MIN = 60_000;
const DAY = 86_400_000;

/** The reference: everything accepted, kept whole and scanned naively. */
interface Model {
  readonly quotas: Map<string, Quotas>;
  readonly accepted: Map<string, number[]>;
  readonly days: Map<string, number>; // `${key} ${day}` → count
}

interface Real {
  readonly kind: StoreKind;
  readonly place: string;
  readonly clock: TestClock;
  store: RateLimitStore;
}

const ceilSeconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/** What a store must answer for a hit of `key` at `now`, and the model updated as a store would count it. */
function expectedHit(model: Model, key: string, now: number): HitResult {
  const q = model.quotas.get(key)!;
  const accepted = model.accepted.get(key) ?? [];
  model.accepted.set(key, accepted);
  // A store records a request no earlier than the last one it recorded (restored ones may be ahead).
  const at = Math.max(now, accepted.at(-1) ?? now);
  const day = Math.floor(now / DAY);
  const dayKey = `${key} ${day}`;
  const inWindow = () => accepted.filter((t) => t > now - MIN);
  const minuteOver = inWindow().length >= q.minute;
  const dayOver = q.day !== null && (model.days.get(dayKey) ?? 0) >= q.day;
  const allowed = !minuteOver && !dayOver;
  if (allowed) {
    accepted.push(at);
    if (q.day !== null) model.days.set(dayKey, (model.days.get(dayKey) ?? 0) + 1);
  }
  const window = inWindow();
  const used = model.days.get(dayKey) ?? 0;
  const untilMidnight = ceilSeconds((day + 1) * DAY - now);
  const retryAfter = Math.max(
    dayOver ? untilMidnight : 0,
    minuteOver ? ceilSeconds(window[window.length - q.minute]! + MIN - now) : 0,
  );
  return {
    allowed,
    exceeded: dayOver ? 'day' : minuteOver ? 'minute' : null,
    retryAfter,
    minute: { quota: q.minute, remaining: Math.max(0, q.minute - window.length), resetSeconds: window.length > 0 ? ceilSeconds(window[0]! + MIN - now) : 60 },
    day: q.day === null ? null : { quota: q.day, remaining: Math.max(0, q.day - used), resetSeconds: untilMidnight, used, dayNumber: day },
  };
}

class Hit implements fc.AsyncCommand<Model, Real> {
  constructor(readonly key: string) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const actual = await real.store.hit(this.key, model.quotas.get(this.key)!);
    const expected = expectedHit(model, this.key, real.clock.ms);
    assert.deepEqual(actual, expected, `hit ${this.key} at ${new Date(real.clock.ms).toISOString()}`);
  }
  toString = () => `hit(${this.key})`;
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(_model: Model, real: Real): Promise<void> {
    real.clock.advance(this.ms);
  }
  toString = () => `advance(${this.ms})`;
}

class SetQuotas implements fc.AsyncCommand<Model, Real> {
  constructor(readonly key: string, readonly quotas: Quotas) {}
  check = () => true;
  async run(model: Model): Promise<void> {
    model.quotas.set(this.key, this.quotas);
  }
  toString = () => `setQuotas(${this.key}, ${JSON.stringify(this.quotas)})`;
}

class Restart implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await real.store.close();
    real.store = real.kind.open(real.place, real.clock.now);
    if (real.kind.restores === 'second') {
      // What the store persists: each request at the last millisecond of its second.
      for (const [key, list] of model.accepted) model.accepted.set(key, list.map((t) => t - (t % 1000) + 999));
    }
  }
  toString = () => 'restart';
}

// Organizations have both windows; a client address has a minute only (a key never switches).
const ORGS = ['org:a', 'org:b'];
const ADDRESS = 'addr:1';
const orgQuotas = fc.record({ minute: fc.integer({ min: 1, max: 5 }), day: fc.integer({ min: 1, max: 12 }) });
const addressQuotas = fc.record({ minute: fc.integer({ min: 1, max: 5 }), day: fc.constant(null) });

const commands = fc.commands([
  fc.constantFrom(...ORGS, ADDRESS).map((key) => new Hit(key)),
  fc.constantFrom(...ORGS, ADDRESS).map((key) => new Hit(key)),
  fc.oneof(
    fc.constantFrom(0, 1, 999, 1_000, 59_999, 60_000, 60_001),
    fc.integer({ min: 0, max: 70_000 }),
    fc.integer({ min: 0, max: 4 * 3_600_000 }),
  ).map((ms) => new Advance(ms)),
  fc.tuple(fc.constantFrom(...ORGS), orgQuotas).map(([key, q]) => new SetQuotas(key, q)),
  addressQuotas.map((q) => new SetQuotas(ADDRESS, q)),
  fc.constant(new Restart()),
], { maxCommands: 80 });

for (const kind of STORE_KINDS) {
  describe(`the ${kind.name} rate-limit store against a reference model`, { skip: kind.skip }, () => {
    test('answers every hit as the model does, across minute boundaries, midnight UTC and restarts', async () => {
      await fc.assert(
        fc.asyncProperty(
          // Starting in the last minutes of a day, so runs cross midnight often.
          fc.integer({ min: Date.parse('2026-03-01T23:50:00Z'), max: Date.parse('2026-03-01T23:59:59.999Z') }),
          fc.tuple(orgQuotas, orgQuotas, addressQuotas),
          commands,
          async (start, [qa, qb, qAddr], cmds) => {
            const place = kind.newPlace();
            const clock = new TestClock(start);
            const real: Real = { kind, place, clock, store: kind.open(place, clock.now) };
            const model: Model = { quotas: new Map<string, Quotas>([['org:a', qa], ['org:b', qb], [ADDRESS, qAddr]]), accepted: new Map(), days: new Map() };
            try {
              await fc.asyncModelRun(() => ({ model, real }), cmds);
            } finally {
              await real.store.close();
              await kind.removePlace(place);
            }
          },
        ),
        { numRuns: 150 },
      );
    });
  });
}
