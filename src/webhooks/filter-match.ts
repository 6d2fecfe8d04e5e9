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

/** LIKE: `%` any run of characters, `_` one character (a code point), nothing else special. */
export function likeMatch(value: string, pattern: string): boolean {
  const v = Array.from(asciiLower(value));
  const p = Array.from(asciiLower(pattern));
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (i < v.length) {
    if (j < p.length && (p[j] === '_' || (p[j] !== '%' && p[j] === v[i]))) {
      i++;
      j++;
    } else if (j < p.length && p[j] === '%') {
      star = j++;
      mark = i;
    } else if (star >= 0) {
      j = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (j < p.length && p[j] === '%') j++;
  return j === p.length;
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
      const found = head === undefined ? likeMatch(v, pattern) : compareCodePoints(v, head) >= 0 && compareCodePoints(v, head + TOP) < 0;
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
