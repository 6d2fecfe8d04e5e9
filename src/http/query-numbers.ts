// Whole numbers in query strings (pagesize, pagenumber, limit) are plain decimal digits. The route
// schemas' coercion reads a string as JavaScript's Number() does, which served `pagesize=0x10` as 16
// and `pagesize=1e1` as 10; each route with an integer query parameter checks the text first.

import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { AppError, quoteText } from '../errors.js';

/** Digits, with a sign so that `-1` meets the schema's own "must be >= 1"; spaces around are let through, as in bodies. */
const DECIMAL = /^\s*-?\d+\s*$/;

interface IntegerParameter {
  readonly name: string;
  readonly minimum?: number;
}

function integerParameters(schema: unknown): IntegerParameter[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown; minimum?: number }> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, p]) => p.type === 'integer')
    .map(([name, p]) => ({ name, ...(p.minimum !== undefined ? { minimum: p.minimum } : {}) }));
}

function notDecimal(p: IntegerParameter, got: string): AppError {
  const atLeast = p.minimum !== undefined ? ` of at least ${p.minimum}` : '';
  return new AppError('PARAM_INVALID', `Invalid query parameter '${p.name}' must be a whole number${atLeast} in decimal digits, such as 10; got ${quoteText(got)}.`);
}

/** From now on, every route registered whose query string takes integers refuses one not written in decimal digits (400 PARAM_INVALID). */
export function installDecimalQueryNumbers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const integers = integerParameters(route.schema?.querystring);
    if (integers.length === 0) return;
    const check: preValidationHookHandler = (request, _reply, done) => {
      const query = request.query as Record<string, unknown>;
      for (const p of integers) {
        const v = query[p.name];
        // An array (the parameter given twice) is the schema's to refuse.
        if (typeof v === 'string' && !DECIMAL.test(v)) {
          done(notDecimal(p, v));
          return;
        }
      }
      done();
    };
    route.preValidation = [check, ...[route.preValidation ?? []].flat()];
  });
}
