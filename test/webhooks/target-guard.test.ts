// Webhooks are kept off the server's own networks: every kind of non-public address, in IPv4 and
// IPv6 (IPv4 inside IPv6 too), is refused with WEBHOOK_TARGET_FORBIDDEN, whether written in the URL
// or what its host resolves to; public ones pass.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AppError } from '../../src/errors.js';
import { checkTarget, nonPublicKind } from '../../src/webhooks/target-guard.js';

const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'], ['169.254.169.254', 'link-local'], ['100.64.0.1', 'shared (CGNAT)'], ['0.0.0.0', 'this network'],
  ['224.0.0.1', 'multicast'], ['255.255.255.255', 'reserved'], ['198.18.0.1', 'benchmarking'],
  ['::1', 'loopback'], ['::', 'unspecified'], ['fe80::1', 'link-local'], ['fd00::1', 'unique-local'], ['fc12:3456::1', 'unique-local'],
  ['ff02::1', 'multicast'], ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'link-local'], ['64:ff9b::a00:1', 'private'], ['2002:c0a8:101::1', 'private'], ['::127.0.0.1', 'IPv4-compatible'],
  ['2001:db8::1', 'documentation'], ['3fff::1', 'documentation'],
  // Teredo: the client's IPv4 address is the last 32 bits, each inverted (127.0.0.1, 10.0.0.1, 192.168.1.1).
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], ['2001::f5ff:fffe', 'private'], ['2001:0:4136:e378:8000:63bf:3f57:fefe', 'private'],
  // Outside global unicast: a site's own NAT64 prefix (to its private IPv4 networks), IPv4-translated, unassigned.
  ['64:ff9b:1::a00:1', 'non-global (outside 2000::/3)'], ['::ffff:0:127.0.0.1', 'non-global (outside 2000::/3)'], ['4000::1', 'non-global (outside 2000::/3)'],
];
const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001:81b::200e', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'];

const refused = (code = 'WEBHOOK_TARGET_FORBIDDEN') => (err: AppError) => err.code === code;

describe('webhook targets', () => {
  test('every non-public address is told apart, with what it is', () => {
    for (const [address, kind] of REFUSED) assert.equal(nonPublicKind(address), kind, address);
    for (const address of PUBLIC) assert.equal(nonPublicKind(address), null, address);
  });

  test('an address written in the URL is refused, in any spelling the URL parser accepts', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://[::ffff:127.0.0.1]/x', 'http://2130706433/', 'http://0x7f.1/',
      'https://10.0.0.1/', 'http://169.254.169.254/latest/meta-data', 'http://017700000001/', 'http://0.0.0.0/', 'http://[fe80::1]/', 'http://[fc00::1]/',
      'http://[64:ff9b:1::a00:1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[2002:7f00:1::]/', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/']) {
      await assert.rejects(checkTarget(new URL(url)), refused(), url);
    }
    await checkTarget(new URL('https://8.8.8.8/hook'));
  });

  test('a host is refused when any address it resolves to is not public; the message names both', async () => {
    const lookup = async (host: string) => (host === 'inside.example' ? [{ address: '93.184.216.34' }, { address: '10.0.0.7' }] : [{ address: '93.184.216.34' }]);
    await assert.rejects(checkTarget(new URL('https://inside.example/h'), lookup), (err: AppError) => err.code === 'WEBHOOK_TARGET_FORBIDDEN' && /inside\.example resolves to 10\.0\.0\.7, a private address/.test(err.message));
    await checkTarget(new URL('https://outside.example/h'), lookup);
    await assert.rejects(checkTarget(new URL('http://localhost:9/h')), refused(), 'localhost resolves to loopback');
  });

  test('a host that does not resolve passes here: each delivery checks it again', async () => {
    await checkTarget(new URL('https://nowhere.invalid/h'), async () => { throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' }); });
  });
});
