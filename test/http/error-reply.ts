// The check of an error reply shared by the HTTP tests: the status, a JSON content type, exactly
// {Message} (docs/api.md), the message, and an X-Error-Code naming a catalogue code of that status.

import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { errorCatalogue, type ErrorCode } from '../../src/errors.js';

/** The reply's X-Error-Code, checked to be a catalogue code whose status is the reply's. */
export function errorCodeOf(res: LightMyRequestResponse): ErrorCode {
  const code = res.headers['x-error-code'];
  assert.equal(typeof code, 'string', `an X-Error-Code header on the ${res.statusCode} reply`);
  assert.ok(Object.hasOwn(errorCatalogue, code as string), `X-Error-Code '${code}' is a catalogue code`);
  assert.equal(errorCatalogue[code as ErrorCode].status, res.statusCode, `the status of ${code}`);
  return code as ErrorCode;
}

export function assertErrorReply(res: LightMyRequestResponse, status: number, message?: string | RegExp): void {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  const b = JSON.parse(res.body) as { Message: unknown };
  assert.deepEqual(Object.keys(b), ['Message']);
  assert.equal(typeof b.Message, 'string');
  assert.ok((b.Message as string).length > 0);
  if (typeof message === 'string') assert.equal(b.Message, message);
  else if (message) assert.match(b.Message as string, message);
  errorCodeOf(res);
}
