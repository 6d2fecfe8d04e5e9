// What every v3 test needs: a POST that parses the reply, and the check of a v3 error, which is
// exactly {status, error, message} (docs/compat.md: the official MCP client shows `message`).

import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from '../helpers.js';
import { errorCodeOf } from './error-reply.js';

export interface V3Reply {
  status: number;
  body: any;
  res: LightMyRequestResponse;
}

/** POST `payload` to `url` with the context's token, or `token` (null: none). */
export async function postV3(ctx: TestContext, url: string, payload: unknown, token?: string | null): Promise<V3Reply> {
  const res = await ctx.request({ method: 'POST', url, payload: payload as object, ...(token === undefined ? {} : { token }) });
  return { status: res.statusCode, body: JSON.parse(res.body), res };
}

/** A v3 error: the status, a JSON content type, exactly {status, error, message}, and the message. */
export function assertV3Error(r: V3Reply, status: number, error: string, message: RegExp | string): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.match(r.res.headers['content-type'] as string, /^application\/json/);
  assert.deepEqual(Object.keys(r.body), ['status', 'error', 'message']);
  assert.equal(r.body.status, status);
  assert.equal(r.body.error, error);
  if (typeof message === 'string') assert.equal(r.body.message, message);
  else assert.match(r.body.message, message);
  errorCodeOf(r.res);
}
