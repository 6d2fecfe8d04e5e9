// The token check (src/auth/authenticator.ts) against a directory in memory.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Authenticator, type TokenDirectory } from '../../src/auth/authenticator.js';
import type { TokenIdentity } from '../../src/auth/identity.js';
import { hashToken } from '../../src/auth/tokens.js';

const TOKEN = '5d0f2c7e-8a4b-4e1f-9c3d-2b6a7e8f9a01';

test('a valid token sent padded to a header\'s size resolves, and its text is not kept: only tokens of at most 512 characters are', async () => {
  const identity = { tokenHash: hashToken(TOKEN), lastUsedAt: null } as unknown as TokenIdentity;
  const directory: TokenDirectory = {
    resolveToken: async (hash) => (hash === identity.tokenHash ? identity : null),
    touchToken: async () => {},
    disabledUserOf: async () => null,
  };
  const auth = new Authenticator(directory, () => 0);
  const kept = (auth as unknown as { digests: Map<string, string> }).digests;
  for (let i = 0; i < 20; i++) assert.equal(await auth.authenticate(`${TOKEN}${' '.repeat(8_000 + i)}`), identity);
  assert.equal(kept.size, 0);
  assert.equal(await auth.authenticate(` ${TOKEN.toUpperCase()} `), identity);
  assert.equal(await auth.authenticate(TOKEN), identity);
  assert.deepEqual([...kept.keys()], [` ${TOKEN.toUpperCase()} `, TOKEN]);
});
