// A route family answers its errors in its shape because of the plugin scope it is registered in,
// not because of its URL: the v3 family mounted elsewhere still answers {status, error, message},
// and the v1 family mounted under /api/v3 still answers {Message}.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { AppError } from '../../src/errors.js';
import { recordsRoutes } from '../../src/http/records-routes.js';
import { v3Routes } from '../../src/http/v3-routes.js';
import type { Service } from '../../src/service/service.js';

/** A service whose every call fails with the same catalogue error. */
const failing = new Proxy({}, {
  get: () => () => Promise.reject(new AppError('RECORD_NOT_FOUND', 'No account with this id.')),
}) as unknown as Service;

test('each family answers in the shape of its scope wherever it is mounted', async () => {
  const app = Fastify();
  await app.register(v3Routes, { service: failing, baseUrl: undefined, prefix: '/mounted/elsewhere' });
  await app.register(recordsRoutes, { service: failing, baseUrl: undefined, prefix: '/api/v3' });
  try {
    const v3 = await app.inject({ method: 'POST', url: '/mounted/elsewhere/record/account/batch/delete', payload: { data: [] } });
    assert.equal(v3.statusCode, 404);
    assert.deepEqual(v3.json(), { status: 404, error: 'Not Found', message: 'No account with this id.' });
    assert.equal(v3.headers['x-error-code'], 'RECORD_NOT_FOUND');

    const v1 = await app.inject({ method: 'GET', url: '/api/v3/api/record/account/1' });
    assert.equal(v1.statusCode, 404);
    assert.deepEqual(v1.json(), { Message: 'No account with this id.' });

    // Unknown paths under each scope's prefix: the scope's shape again.
    assert.deepEqual(Object.keys((await app.inject({ method: 'GET', url: '/mounted/elsewhere/nothing' })).json()).sort(), ['error', 'message', 'status']);
  } finally {
    await app.close();
  }
});
