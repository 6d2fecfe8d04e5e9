// Scalars written as the schemas say, not as their coercion reads them: whole numbers in query
// strings (pagesize, pagenumber, limit) on every route, and the numbers and booleans of the control
// API's bodies. The route schemas' coercion reads a string as JavaScript's Number() does, which served
// `pagesize=0x10` as 16 and `pagesize=1e1` as 10 (and, in a body, `true` as 1 and `null` as 0), and
// a boolean member took "true", "false", 1, 0 and null; each such route checks the values first.

import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { AppError, quote, quoteText } from '../errors.js';

/** Digits, with a sign so that `-1` meets the schema's own "must be >= 1"; spaces around are let through, as in bodies. */
const DECIMAL = /^\s*-?\d+\s*$/;
/** The same with a fraction (`0.25`), for a member that takes any number: still no exponent or other base. */
const DECIMAL_FRACTION = /^\s*-?\d+(?:\.\d+)?\s*$/;

/** The scalar types checked: a whole number, a number (a fraction is written too), true or false. */
type ScalarType = 'integer' | 'number' | 'boolean';

interface ScalarMember {
  readonly name: string;
  readonly type: ScalarType;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly nullable: boolean;
}

interface MemberSchema { type?: unknown; minimum?: number; maximum?: number; nullable?: boolean }

const isScalarType = (type: unknown): type is ScalarType => type === 'integer' || type === 'number' || type === 'boolean';

/** The members of an object schema of the scalar `types`. */
function scalarMembers(schema: unknown, types: readonly ScalarType[]): ScalarMember[] {
  const properties = (schema as { properties?: Record<string, MemberSchema> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter((entry): entry is [string, MemberSchema & { type: ScalarType }] => isScalarType(entry[1].type) && types.includes(entry[1].type))
    .map(([name, p]) => ({ name, type: p.type, nullable: p.nullable === true, ...(p.minimum !== undefined ? { minimum: p.minimum } : {}), ...(p.maximum !== undefined ? { maximum: p.maximum } : {}) }));
}

/** A number schema's kind and bounds as a message says them: "a whole number from 1 to 500", "a number of at least 0". */
export function numberRange(s: { type?: unknown; minimum?: number; maximum?: number }): string {
  const kind = s.type === 'integer' ? 'a whole number' : 'a number';
  if (s.minimum !== undefined && s.maximum !== undefined) return `${kind} from ${s.minimum} to ${s.maximum}`;
  if (s.minimum !== undefined) return `${kind} of at least ${s.minimum}`;
  return s.maximum !== undefined ? `${kind} of at most ${s.maximum}` : kind;
}

/** What the member must be, as a message says it. */
function expected(p: Pick<ScalarMember, 'type' | 'minimum'>): string {
  if (p.type === 'boolean') return 'a JSON boolean, true or false';
  // The form, and the least value as a reminder; the range in full is said of a value out of it.
  return `${numberRange({ type: p.type, ...(p.minimum !== undefined ? { minimum: p.minimum } : {}) })} in decimal digits, such as ${p.type === 'number' ? '10 or 0.5' : '10'}`;
}

/** What a member of schema `s` must be, as a message says it, when it is a number or a boolean. */
export function scalarExpected(s: MemberSchema): string | undefined {
  return isScalarType(s.type) ? expected({ type: s.type, ...(s.minimum !== undefined ? { minimum: s.minimum } : {}) }) : undefined;
}

/** Whether `v` is written as `p` takes it: a string in decimal digits (a query string's every value is one). */
const isDecimal = (p: ScalarMember, v: string): boolean => (p.type === 'number' ? DECIMAL_FRACTION : DECIMAL).test(v);

/** Whether a body's `v` is written as `p` takes it: a JSON boolean; a JSON number or decimal digits; null where nullable. */
function bodyFits(p: ScalarMember, v: unknown): boolean {
  if (v === null) return p.nullable;
  if (p.type === 'boolean') return typeof v === 'boolean';
  return typeof v === 'number' || (typeof v === 'string' && isDecimal(p, v));
}

/** A preValidation hook of `members`, each read from `values(request)` and refused by `refuse` unless `fits`; none when there are no members. */
function checkOf(members: ScalarMember[], values: (request: Parameters<preValidationHookHandler>[0]) => unknown, fits: (p: ScalarMember, v: unknown) => boolean,
  refuse: (p: ScalarMember, v: unknown) => AppError): preValidationHookHandler | undefined {
  if (members.length === 0) return undefined;
  return (request, _reply, done) => {
    const object = values(request);
    if (object === null || typeof object !== 'object' || Array.isArray(object)) return done();
    for (const p of members) {
      if (!Object.hasOwn(object, p.name)) continue;
      const v = (object as Record<string, unknown>)[p.name];
      if (!fits(p, v)) return done(refuse(p, v));
    }
    done();
  };
}

/** Adds `check` before the route's own preValidation hooks. */
function prepend(route: { preValidation?: preValidationHookHandler | preValidationHookHandler[] }, check: preValidationHookHandler | undefined): void {
  if (check) route.preValidation = [check, ...[route.preValidation ?? []].flat()];
}

/** Whether decimal digits `v` are within `p`'s range, compared as written (exactly, however many digits). */
function inRange(p: ScalarMember, v: string): boolean {
  const n = BigInt(v.trim());
  return (p.minimum === undefined || n >= BigInt(p.minimum)) && (p.maximum === undefined || n <= BigInt(p.maximum));
}

/**
 * From now on, every route registered whose query string takes integers refuses one not written in
 * decimal digits, or out of its range, with 400 PARAM_INVALID quoting the text sent: the schema's
 * coercion would have turned 184467440737095517 into 184467440737095520, and digits too many for a
 * double into Infinity, which the schema's bounds let through. A parameter without a maximum (a
 * page size, served as its largest when over it) takes any number of digits, Infinity included.
 */
export function installDecimalQueryNumbers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    // An array (the parameter given twice) is the schema's to refuse, and schemaFault's to explain.
    prepend(route, checkOf(scalarMembers(route.schema?.querystring, ['integer']), (request) => request.query,
      (p, v) => typeof v !== 'string' || (isDecimal(p, v) && inRange(p, v)),
      (p, v) => {
        const sent = String(v);
        const must = isDecimal(p, sent) ? numberRange(p) : expected(p);
        return new AppError('PARAM_INVALID', `Invalid query parameter '${p.name}' must be ${must}; got ${quoteText(sent)}.`);
      }));
  });
}

/**
 * From now on, every route registered in `scope` whose body takes numbers or booleans (top-level
 * members) takes each number as a JSON number or a string in decimal digits, and each boolean as
 * JSON true or false; null only where the member is nullable. `"0x10"`, `"1e1"`, `true` or `null`
 * for a number, and `"true"`, `"false"`, `1`, `0` or `null` for a boolean, are 400 BODY_INVALID,
 * not read as 16, 10, 1, 0, true or false.
 */
export function installStrictBodyScalars(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    prepend(route, checkOf(scalarMembers(route.schema?.body, ['integer', 'number', 'boolean']), (request) => request.body, bodyFits,
      (p, v) => new AppError('BODY_INVALID', `The request body is invalid: '${p.name}' must be ${expected(p)}; got ${quote(v)}. Check your data.`)));
  });
}
