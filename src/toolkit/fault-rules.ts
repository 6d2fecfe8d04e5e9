// Fault rules (docs/control-api.md § Faults): requests of the service's routes that match a rule are
// answered with a forced failure — a 429 of either window, a 500, 503 or 408 — and/or delayed. A
// rule matches by organization, method, route family and object, then fires with a seeded
// probability (the same seed gives the same sequence of decisions) and/or for its next N matches.

import { AppError } from '../errors.js';
import { seededRandom } from '../random.js';

/**
 * The route families of the service's API, as rules name them: every route a token reaches is in
 * one (docs/control-api.md § Faults; `organization` is /api/me, /api/objects and /api/usage).
 */
export const ROUTE_FAMILIES = ['records', 'query', 'metadata', 'v2', 'v3', 'organization', 'webhooks'] as const;

/** The families' list as help and messages give it. */
export const FAMILY_LIST = ROUTE_FAMILIES.join(', ');
export type RouteFamily = (typeof ROUTE_FAMILIES)[number];

export const FAULT_STATUSES = [408, 429, 500, 503] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** The longest latency a rule may add: a request's time limit is at most an hour. */
export const MAX_LATENCY_MS = 3_600_000;

/** A rule as given (control API, CLI, fixtures file). */
export interface FaultRuleInput {
  /** Only this organization's requests; any organization's when absent. */
  readonly orgId?: string;
  /** HTTP methods (any case); any method when absent. */
  readonly methods?: readonly string[];
  /** Route families; any when absent. */
  readonly families?: readonly RouteFamily[];
  /** The object (system name or number, any case); any request when absent, none without an object. */
  readonly object?: string;
  /** Fires on each match with this probability (0 to 1]; 1 when absent. */
  readonly probability?: number;
  /** The seed of the probability's draws (an integer); chosen at random when absent, and shown. */
  readonly seed?: number;
  /** Fires for the next N matches (that the probability lets through), then the rule is removed. */
  readonly count?: number;
  /** The forced reply's status; none when the rule only adds latency. */
  readonly status?: FaultStatus;
  /** For 429: the window the refusal names (default minute). */
  readonly window?: 'minute' | 'day';
  /**
   * For 429 and 503: the Retry-After in seconds (default: 429, 60 for the minute, until 00:00 UTC for
   * the day; 503, that of a real STORE_UNAVAILABLE).
   */
  readonly retryAfter?: number;
  /** Milliseconds to wait before the request goes on (or before the forced reply). */
  readonly latencyMs?: number;
}

/** A rule held by the server. */
export interface FaultRule extends FaultRuleInput {
  readonly id: string;
  readonly seed: number;
  /** Fires left for a rule with a count; null without one. */
  readonly remaining: number | null;
  /** Requests the rule matched, and the times it fired. */
  readonly matched: number;
  readonly fired: number;
}

/** What a request is, for matching. */
export interface FaultRequest {
  readonly orgId: string;
  readonly method: string;
  readonly family: RouteFamily;
  /** Matched only by a rule that names its family (reading the usage, which must change nothing when watched). */
  readonly namedOnly?: boolean;
  /** Whether the request is about `object` (system name or number, lowercase); absent when it has no object. */
  readonly isObject?: (object: string) => Promise<boolean>;
}

/** What a firing rule asks for. */
export interface Fault {
  readonly ruleId: string;
  readonly status?: FaultStatus;
  readonly window: 'minute' | 'day';
  readonly retryAfter?: number;
  readonly latencyMs: number;
}

const invalid = (path: string, what: string): AppError => new AppError('BODY_INVALID', `The fault rule is invalid: '${path}' ${what}.`);

const RULE_KEYS = new Set(['orgId', 'methods', 'families', 'object', 'probability', 'seed', 'count', 'status', 'window', 'retryAfter', 'latencyMs']);

const isInteger = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** One rule checked, members named from `path` in errors (e.g. `faults[2].status`). */
export function parseFaultRule(value: unknown, path = 'rule'): FaultRuleInput {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(path, 'must be an object');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) if (!RULE_KEYS.has(key)) throw invalid(`${path}.${key}`, `is not a member of a rule (members: ${[...RULE_KEYS].join(', ')})`);
  const out: { -readonly [K in keyof FaultRuleInput]: FaultRuleInput[K] } = {};
  if (v.orgId !== undefined) {
    if (typeof v.orgId !== 'string' || v.orgId === '') throw invalid(`${path}.orgId`, 'must be an organization id');
    out.orgId = v.orgId;
  }
  if (v.methods !== undefined) {
    if (!Array.isArray(v.methods) || v.methods.length === 0 || !v.methods.every((m) => typeof m === 'string' && /^[A-Za-z]{1,16}$/.test(m))) {
      throw invalid(`${path}.methods`, 'must be a non-empty list of HTTP methods such as ["GET", "POST"]');
    }
    out.methods = v.methods.map((m: string) => m.toUpperCase());
  }
  if (v.families !== undefined) {
    if (!Array.isArray(v.families) || v.families.length === 0 || !v.families.every((f) => (ROUTE_FAMILIES as readonly unknown[]).includes(f))) {
      throw invalid(`${path}.families`, `must be a non-empty list of ${FAMILY_LIST}`);
    }
    out.families = v.families as RouteFamily[];
  }
  if (v.object !== undefined) {
    if (typeof v.object !== 'string' && !isInteger(v.object, 0, Number.MAX_SAFE_INTEGER)) throw invalid(`${path}.object`, 'must be an object\'s system name or number');
    out.object = String(v.object).toLowerCase();
  }
  if (v.probability !== undefined) {
    if (typeof v.probability !== 'number' || !(v.probability > 0 && v.probability <= 1)) throw invalid(`${path}.probability`, 'must be a number above 0 and at most 1');
    out.probability = v.probability;
  }
  if (v.seed !== undefined) {
    if (!isInteger(v.seed, 0, 0xffffffff)) throw invalid(`${path}.seed`, 'must be a whole number from 0 to 4294967295');
    out.seed = v.seed;
  }
  if (v.count !== undefined) {
    if (!isInteger(v.count, 1, Number.MAX_SAFE_INTEGER)) throw invalid(`${path}.count`, 'must be a whole number of at least 1');
    out.count = v.count;
  }
  if (v.status !== undefined) {
    if (!(FAULT_STATUSES as readonly unknown[]).includes(v.status)) throw invalid(`${path}.status`, `must be one of ${FAULT_STATUSES.join(', ')}`);
    out.status = v.status as FaultStatus;
  }
  if (v.window !== undefined) {
    if (v.window !== 'minute' && v.window !== 'day') throw invalid(`${path}.window`, 'must be minute or day');
    if (out.status !== 429) throw invalid(`${path}.window`, 'is for status 429 only');
    out.window = v.window;
  }
  if (v.retryAfter !== undefined) {
    if (!isInteger(v.retryAfter, 0, 86_400)) throw invalid(`${path}.retryAfter`, 'must be a whole number of seconds from 0 to 86400');
    if (out.status !== 429 && out.status !== 503) throw invalid(`${path}.retryAfter`, 'is for status 429 or 503 only');
    out.retryAfter = v.retryAfter;
  }
  if (v.latencyMs !== undefined) {
    if (!isInteger(v.latencyMs, 0, MAX_LATENCY_MS)) throw invalid(`${path}.latencyMs`, `must be a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}`);
    out.latencyMs = v.latencyMs;
  }
  if (out.status === undefined && out.latencyMs === undefined) throw invalid(path, 'must have a status, a latencyMs or both');
  return out;
}

/** A list of rules checked (the fixtures file's `faults` member): errors name the bad member from `path`. */
export function parseFaultRules(value: unknown, path = 'faults'): FaultRuleInput[] {
  if (!Array.isArray(value)) throw invalid(path, 'must be a list of fault rules');
  return value.map((rule, i) => parseFaultRule(rule, `${path}[${i}]`));
}

interface Held {
  rule: FaultRuleInput & { id: string; seed: number };
  /** The input it was made from, as text (addOnce). */
  key: string;
  remaining: number | null;
  matched: number;
  fired: number;
  draw: () => number;
}

/** A rule's input as text whatever the order of its members, so two made from the same input compare equal. */
function inputKey(input: FaultRuleInput): string {
  return JSON.stringify(Object.entries(input).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
}

/** The rules of a server, in the order added: the first that fires answers. */
export class FaultRules {
  private readonly rules: Held[] = [];
  private next = 1;

  /** Whether any rule is held: the service's routes look no further when none is. */
  get empty(): boolean {
    return this.rules.length === 0;
  }

  /**
   * Adds `input` unless a rule made from the same input is held already (a fixtures file loaded
   * again): then that rule, as it stands.
   */
  addOnce(input: FaultRuleInput): FaultRule {
    const key = inputKey(input);
    const held = this.rules.find((h) => h.key === key);
    return held ? view(held) : this.add(input);
  }

  add(input: FaultRuleInput): FaultRule {
    const seed = input.seed ?? Math.floor(Math.random() * 0x100000000);
    const held: Held = { rule: { ...input, id: `fault-${this.next++}`, seed }, key: inputKey(input), remaining: input.count ?? null, matched: 0, fired: 0, draw: seededRandom(seed) };
    this.rules.push(held);
    return view(held);
  }

  list(orgId?: string): FaultRule[] {
    return this.rules.filter((h) => orgId === undefined || h.rule.orgId === orgId).map(view);
  }

  /** Removes a rule; false when none has the id. */
  remove(id: string): boolean {
    const i = this.rules.findIndex((h) => h.rule.id === id);
    if (i < 0) return false;
    this.rules.splice(i, 1);
    return true;
  }

  /** Removes every rule (of one organization when given); returns how many. */
  clear(orgId?: string): number {
    let removed = 0;
    for (let i = this.rules.length - 1; i >= 0; i--) {
      if (orgId === undefined || this.rules[i]!.rule.orgId === orgId) {
        this.rules.splice(i, 1);
        removed++;
      }
    }
    return removed;
  }

  /** The fault for a request: the first rule that matches and fires, or null. */
  async decide(request: FaultRequest): Promise<Fault | null> {
    for (const held of [...this.rules]) {
      const { rule } = held;
      if (rule.orgId !== undefined && rule.orgId !== request.orgId) continue;
      if (rule.methods && !rule.methods.includes(request.method)) continue;
      if (rule.families ? !rule.families.includes(request.family) : request.namedOnly === true) continue;
      if (rule.object !== undefined && !(await request.isObject?.(rule.object))) continue;
      if (!this.rules.includes(held)) continue; // removed while the object was looked up
      held.matched++;
      if (rule.probability !== undefined && held.draw() >= rule.probability) continue;
      held.fired++;
      if (held.remaining !== null && --held.remaining === 0) this.remove(rule.id);
      return {
        ruleId: rule.id,
        ...(rule.status !== undefined ? { status: rule.status } : {}),
        window: rule.window ?? 'minute',
        ...(rule.retryAfter !== undefined ? { retryAfter: rule.retryAfter } : {}),
        latencyMs: rule.latencyMs ?? 0,
      };
    }
    return null;
  }
}

function view(held: Held): FaultRule {
  return { ...held.rule, remaining: held.remaining, matched: held.matched, fired: held.fired };
}
