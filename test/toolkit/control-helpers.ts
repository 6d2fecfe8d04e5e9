// Calls of the control API through inject, for the toolkit's tests.

import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from '../helpers.js';

export const ADMIN_KEY = 'toolkit-admin-key-0123456789abcdef';

/** `method url` on the control API with the admin key; the reply's JSON (null for 204), asserting a 2xx. */
export async function control<T = any>(ctx: TestContext, method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object): Promise<T> {
  const res = await controlReply(ctx, method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return (res.body === '' ? null : res.json()) as T;
}

export function controlReply(ctx: TestContext, method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object): Promise<LightMyRequestResponse> {
  return ctx.request({ method, url: `/_orchard${url}`, token: null, headers: { authorization: `Bearer ${ADMIN_KEY}` }, ...(payload !== undefined ? { payload } : {}) });
}
