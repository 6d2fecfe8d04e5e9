// A webhook's filter (docs/webhooks.md): the filter language of /api/query, typed by the query plan,
// and evaluated here against the record as a write leaves it, in the write's transaction. It gives
// the answer the stores' SQL gives for the same plan (test/webhooks/filter-match.test.ts compares
// them): text through the case fold, compared by code point; LIKE with `%` and `_` and A–Z in
// either case; `!=`, `not-…` and negated ranges also matching empty values.

import { AppError, quoteText } from '../errors.js';
import { isPlanGroup, planFilterText, type PlanCondition, type PlanNode } from '../query/plan.js';
import { QueryFields, READ_ALL } from '../query/query-fields.js';
import type { OrgSchema } from '../schema/org-schema.js';
import { TEXT_TYPES, type FieldDef, type FieldValue, type ObjectDef, type RecordRow } from '../schema/types.js';

/**
 * The fields a webhook filter may name: the object's stored fields. A derived name (ownername) or a
 * related field (ownerid_fullname) reads another record, which a write does not fix: the record
 * deleted has no such values, and the other record may change before or after the write.
 */
class StoredFields extends QueryFields {
  override field(name: string, where: string, asSent = name): FieldDef {
    const f = super.field(name, where, asSent);
    if (f.role === 'derived') {
      const instead = f.derivedFrom ? ` Filter on '${f.derivedFrom}' (the id of the record) instead.` : '';
      throw new AppError('WEBHOOK_INVALID', `${quoteText(asSent)}${where} reads another record than the one written; a webhook's filter may name the ${this.obj.systemName} object's own stored fields.${instead}`);
    }
    return f;
  }
}

/** The typed filter of a webhook on `obj`; null when the text is empty. Throws as /api/query's `query` does, and WEBHOOK_INVALID for a derived or related field. */
export function planWebhookFilter(schema: OrgSchema, obj: ObjectDef, text: string): PlanNode | null {
  return planFilterText(new StoredFields(schema, obj, READ_ALL), text);
}

/** A UTF-16 code unit's rank in code point order: surrogates (code points past U+FFFF) after the rest of the BMP. */
const rank = (c: number): number => (c >= 0xd800 && c <= 0xdfff ? c + 0x2000 : c >= 0xe000 ? c - 0x800 : c);

/** Compares by code point, as SQLite's BINARY and PostgreSQL's "C" compare UTF-8 text. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** The highest code point: a prefix followed by it bounds every text that starts with the prefix (record-sql.ts). */
const TOP = '\u{10FFFF}';

/** Folds A–Z only, as SQLite's LIKE and ILIKE under "C" do. */
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

const WILD = 0x5f; // `_`

const codePoints = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0)!);

/** Whether `seg` (code points, `_` any one) matches `v` at `at`. */
function matchesAt(v: readonly number[], at: number, seg: readonly number[]): boolean {
  for (let j = 0; j < seg.length; j++) if (seg[j] !== WILD && seg[j] !== v[at + j]) return false;
  return true;
}

/** The leftmost `at` in [from, end − seg.length] where `seg` matches `v`, or −1. */
type SegmentSearch = (v: readonly number[], from: number, end: number) => number;

/** Knuth–Morris–Pratt for a segment without `_`: each code point of the value read once. */
function literalSearch(seg: readonly number[]): SegmentSearch {
  const back = new Int32Array(seg.length);
  for (let i = 1, k = 0; i < seg.length; i++) {
    while (k > 0 && seg[i] !== seg[k]) k = back[k - 1]!;
    if (seg[i] === seg[k]) k++;
    back[i] = k;
  }
  return (v, from, end) => {
    for (let t = from, k = 0; t < end; t++) {
      while (k > 0 && v[t] !== seg[k]) k = back[k - 1]!;
      if (v[t] === seg[k] && ++k === seg.length) return t - seg.length + 1;
    }
    return -1;
  };
}

/**
 * Shift-And for a segment with `_`: bit j of the state says the segment's first j + 1 code points
 * match ending here; a code point of the value costs one pass over ⌈length / 32⌉ words.
 */
function wildcardSearch(seg: readonly number[]): SegmentSearch {
  const words = Math.ceil(seg.length / 32);
  const any = new Uint32Array(words);
  seg.forEach((c, j) => { if (c === WILD) any[j >>> 5]! |= 1 << (j & 31); });
  const masks = new Map<number, Uint32Array>();
  seg.forEach((c, j) => {
    if (c === WILD) return;
    let m = masks.get(c);
    if (!m) masks.set(c, (m = Uint32Array.from(any)));
    m[j >>> 5]! |= 1 << (j & 31);
  });
  const top = words - 1;
  const last = 1 << ((seg.length - 1) & 31);
  return (v, from, end) => {
    const state = new Uint32Array(words);
    for (let t = from; t < end; t++) {
      const mask = masks.get(v[t]!) ?? any;
      let carry = 1;
      for (let w = 0; w < words; w++) {
        const d = state[w]!;
        state[w] = ((d << 1) | carry) & mask[w]!;
        carry = d >>> 31;
      }
      if (state[top]! & last) return t - seg.length + 1;
    }
    return -1;
  };
}

/** A LIKE pattern split at `%`, its segments ready to search. */
interface LikePattern {
  readonly segments: readonly (readonly number[])[];
  readonly searches: readonly SegmentSearch[];
}

function compileLike(pattern: string): LikePattern {
  const segments = asciiLower(pattern).split('%').map(codePoints);
  return { segments, searches: segments.map((seg) => (seg.includes(WILD) ? wildcardSearch(seg) : literalSearch(seg))) };
}

/**
 * LIKE: `%` any run of characters, `_` one code point, nothing else special. The first and last
 * segments are anchored and those between are taken leftmost in turn, which finds a match whenever
 * there is one; so a value is read about once per segment, where a backtracking match could cost
 * value × pattern (a 4,000-character filter on a 200,000-character value held a write 4.5 s).
 */
function likeMatches(value: string, like: LikePattern): boolean {
  const v = codePoints(asciiLower(value));
  const { segments, searches } = like;
  const first = segments[0]!;
  if (segments.length === 1) return v.length === first.length && matchesAt(v, 0, first);
  const last = segments[segments.length - 1]!;
  const end = v.length - last.length;
  if (first.length > end || !matchesAt(v, 0, first) || !matchesAt(v, end, last)) return false;
  let at = first.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const seg = segments[i]!;
    if (seg.length === 0) continue;
    const found = searches[i]!(v, at, end);
    if (found < 0) return false;
    at = found + seg.length;
  }
  return true;
}

/** LIKE of one value against one pattern (likeMatches; a webhook's conditions keep theirs compiled). */
export function likeMatch(value: string, pattern: string): boolean {
  return likeMatches(value, compileLike(pattern));
}

/** The prefix a pattern asks for when it is one (text, then a single `%` at the end): then a range, as the stores compile it. */
function plainPrefix(pattern: string): string | undefined {
  const head = pattern.slice(0, -1);
  return pattern.endsWith('%') && !/[%_]/.test(head) ? head : undefined;
}

function compare(a: FieldValue, b: string | number, op: string): boolean {
  const c = typeof a === 'number' && typeof b === 'number' ? a - b : compareCodePoints(String(a), String(b));
  switch (op) {
    case '=': return c === 0;
    case '!=': return c !== 0;
    case '<': return c < 0;
    case '>': return c > 0;
    case '<=': return c <= 0;
    default: return c >= 0;
  }
}

/** A condition's pattern compiled once: a webhook's filter is planned once and run on every write. */
const compiledLikes = new WeakMap<PlanCondition, LikePattern>();
function compiledLike(c: PlanCondition, pattern: string): LikePattern {
  let like = compiledLikes.get(c);
  if (!like) compiledLikes.set(c, (like = compileLike(pattern)));
  return like;
}

function holds(c: PlanCondition, row: RecordRow): boolean {
  const raw = row[c.field.name];
  const empty = raw === null || raw === undefined;
  if (c.kind === 'null') return c.negate ? !empty : empty;
  const text = TEXT_TYPES.has(c.field.type);
  const fold = (v: string | number): string | number => (text && typeof v === 'string' ? v.toLowerCase() : v);
  switch (c.kind) {
    case 'compare':
      if (empty) return c.op === '!=';
      return compare(fold(raw), fold(c.value), c.op);
    case 'range': {
      if (empty) return c.negate;
      const v = fold(raw);
      const inside = compare(v, fold(c.from), '>=') && compare(v, fold(c.to), '<');
      return c.negate ? !inside : inside;
    }
    case 'match': {
      if (empty) return c.negate;
      const v = String(fold(raw));
      const pattern = String(fold(c.pattern));
      const head = plainPrefix(pattern);
      const found = head === undefined ? likeMatches(v, compiledLike(c, pattern)) : compareCodePoints(v, head) >= 0 && compareCodePoints(v, head + TOP) < 0;
      return c.negate ? !found : found;
    }
  }
}

/** Whether the record matches the typed filter (null: every record does). */
export function matchesFilter(filter: PlanNode | null, row: RecordRow): boolean {
  if (filter === null) return true;
  if (!isPlanGroup(filter)) return holds(filter, row);
  return filter.kind === 'and' ? filter.children.every((c) => matchesFilter(c, row)) : filter.children.some((c) => matchesFilter(c, row));
}
