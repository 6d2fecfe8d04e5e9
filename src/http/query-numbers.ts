// Numbers written as text are decimal: whole numbers in query strings (pagesize, pagenumber, limit)
// on every route, and the numbers of the control API's bodies. The route schemas' coercion reads a
// string as JavaScript's Number() does, which served `pagesize=0x10` as 16 and `pagesize=1e1` as 10
// (and, in a body, `true` as 1 and `null` as 0); each such route checks the values first.

import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { AppError, quote, quoteText } from '../errors.js';

/** Digits, with a sign so that `-1` meets the schema's own "must be >= 1"; spaces around are let through, as in bodies. */
const DECIMAL = /^\s*-?\d+\s*$/;
/** The same with a fraction (`0.25`), for a member that takes any number: still no exponent or other base. */
const DECIMAL_FRACTION = /^\s*-?\d+(?:\.\d+)?\s*$/;

interface NumberMember {
  readonly name: string;
  readonly minimum?: number;
  /** A number, not a whole number: a fraction is written too. */
  readonly fraction: boolean;
  readonly nullable: boolean;
}

type Properties = Record<string, { type?: unknown; minimum?: number; nullable?: boolean }>;

/** The members of an object schema typed as whole numbers, or also as numbers when `fractions`. */
function numberMembers(schema: unknown, fractions: boolean): NumberMember[] {
  const properties = (schema as { properties?: Properties } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, p]) => p.type === 'integer' || (fractions && p.type === 'number'))
    .map(([name, p]) => ({ name, fraction: p.type === 'number', nullable: p.nullable === true, ...(p.minimum !== undefined ? { minimum: p.minimum } : {}) }));
}

/** What the member must be, as a message says it. */
function expected(p: NumberMember): string {
  const atLeast = p.minimum !== undefined ? ` of at least ${p.minimum}` : '';
  return p.fraction ? `a number${atLeast} in decimal digits, such as 10 or 0.5` : `a whole number${atLeast} in decimal digits, such as 10`;
}

/** Whether `v` is written as `p` takes it: a string in decimal digits (a query string's every value is one). */
const isDecimal = (p: NumberMember, v: string): boolean => (p.fraction ? DECIMAL_FRACTION : DECIMAL).test(v);

/** A preValidation hook of `members`, each read from `values(request)` and refused by `refuse` unless `fits`; none when there are no members. */
function checkOf(members: NumberMember[], values: (request: Parameters<preValidationHookHandler>[0]) => unknown, fits: (p: NumberMember, v: unknown) => boolean,
  refuse: (p: NumberMember, v: unknown) => AppError): preValidationHookHandler | undefined {
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

/** From now on, every route registered whose query string takes integers refuses one not written in decimal digits (400 PARAM_INVALID). */
export function installDecimalQueryNumbers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    // An array (the parameter given twice) is the schema's to refuse.
    prepend(route, checkOf(numberMembers(route.schema?.querystring, false), (request) => request.query,
      (p, v) => typeof v !== 'string' || isDecimal(p, v),
      (p, v) => new AppError('PARAM_INVALID', `Invalid query parameter '${p.name}' must be ${expected(p)}; got ${quoteText(String(v))}.`)));
  });
}

/**
 * From now on, every route registered in `scope` whose body takes numbers (top-level members) takes
 * each as a JSON number or a string in decimal digits, null only where the member is nullable:
 * `"0x10"`, `"1e1"`, `true` or `null` is 400 BODY_INVALID, not read as 16, 10, 1 or 0.
 */
export function installDecimalBodyNumbers(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    prepend(route, checkOf(numberMembers(route.schema?.body, true), (request) => request.body,
      (p, v) => typeof v === 'number' || (typeof v === 'string' && isDecimal(p, v)) || (v === null && p.nullable),
      (p, v) => new AppError('BODY_INVALID', `The request body is invalid: '${p.name}' must be ${expected(p)}; got ${quote(v)}. Check your data.`)));
  });
}
