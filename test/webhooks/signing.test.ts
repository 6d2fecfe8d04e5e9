// Deliveries are signed as Standard Webhooks defines: the reference implementation (the
// `standardwebhooks` package) verifies what the server signs, and refuses it once anything changes;
// during a secret's rotation, with either secret.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { isSecret, newSecret, signedHeaders } from '../../src/webhooks/signing.js';

describe('delivery signatures', () => {
  test('standardwebhooks verifies a signed delivery and returns its body', () => {
    const secret = newSecret();
    const body = JSON.stringify({ type: 'account.created', timestamp: '2026-03-01T12:00:00.000Z', data: { id: 'x', record: { accountname: 'Ünïcode ✓' } } });
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders(secret, 'd7c5a1f0-0000-4000-8000-000000000001', now, body);
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
  });

  test('a changed body, id, timestamp or secret is refused', () => {
    const secret = newSecret();
    const body = '{"type":"account.updated"}';
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders(secret, 'id-1', now, body);
    const wh = new Webhook(secret);
    assert.throws(() => wh.verify('{"type":"account.deleted"}', headers));
    assert.throws(() => wh.verify(body, { ...headers, 'webhook-id': 'id-2' }));
    assert.throws(() => wh.verify(body, { ...headers, 'webhook-timestamp': String(now + 1) }));
    assert.throws(() => new Webhook(newSecret()).verify(body, headers));
    // A timestamp far from the receiver's clock is refused: the server signs with real time.
    assert.throws(() => wh.verify(body, signedHeaders(secret, 'id-1', now - 3600, body)));
  });

  test('during a rotation\'s overlap the header carries a signature under each secret, the new first: standardwebhooks verifies it with either, and no other', () => {
    const [secret, previous] = [newSecret(), newSecret()];
    const body = '{"type":"account.updated"}';
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders(secret, 'id-1', now, body, previous);
    assert.deepEqual(headers['webhook-signature']!.split(' '), [
      signedHeaders(secret, 'id-1', now, body)['webhook-signature'], signedHeaders(previous, 'id-1', now, body)['webhook-signature'],
    ]);
    for (const s of [secret, previous]) assert.deepEqual(new Webhook(s).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(newSecret()).verify(body, headers));
    // One secret, one signature: an attempt outside an overlap is signed as before.
    assert.match(signedHeaders(secret, 'id-1', now, body)['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}=$/);
  });

  test('secrets are whsec_ and the base64 of 32 random bytes; others are told apart', () => {
    const s = newSecret();
    assert.match(s, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(s.slice(6), 'base64').length, 32);
    assert.notEqual(newSecret(), s);
    assert.equal(isSecret(s), true);
    for (const bad of ['whsec_', 'whsec_abc', s.slice(6), `whsec_${'A'.repeat(8)}`, `whsec_${Buffer.alloc(65).toString('base64')}`, 'whsec_!!!!']) assert.equal(isSecret(bad), false, bad);
  });
});
