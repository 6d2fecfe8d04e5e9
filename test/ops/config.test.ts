// The environment's settings refused at start rather than read as something else: a number that is
// not written in decimal digits, a store's or mail server's address that its client would read as
// another (docs/operations.md, README.md § Configuration).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';

test('refuses a whole-number setting that is blank, signed, hexadecimal or in exponent form, rather than reading 0 or its value', () => {
  // A PORT of spaces was read as 0: the server listened on a random port.
  for (const raw of [' ', '-0', '+80', '0x1F90', '8e3', '80.0']) {
    assert.throws(() => loadConfig({ PORT: raw }), { message: `PORT must be a whole number from 0 to 65535; got '${raw}'.` }, raw);
  }
  assert.throws(() => loadConfig({ JOURNAL_SIZE: '\t' }), /^AppError: JOURNAL_SIZE must be a whole number from 0 to 100000; got '\t'\.$/);
  assert.throws(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '1e3' }), /^AppError: WEBHOOK_TIMEOUT_MS must be a whole number/);
  assert.throws(() => loadConfig({ DAILY_CAP: ' ' }), /^AppError: DAILY_CAP must be a whole number/);
  // Digits around which an environment file left spaces are still the number.
  assert.equal(loadConfig({ PORT: ' 8081 ' }).port, 8081);
  assert.equal(loadConfig({ PORT: '' }).port, 8080);
});

/** Each address setting: values its client would read as another server (what it did, in the comment), then values it takes. */
const ADDRESSES = [
  // pg read 'garbage' as a database on the host 'base', and mysql:// as PostgreSQL.
  { name: 'DATABASE_URL', key: 'databaseUrl', message: /^DATABASE_URL must be a PostgreSQL connection URL such as postgres:\/\/user:password@host:5432\/database/,
    bad: ['garbage', 'mysql://u:secret@db.internal/orchard', 'http://u:secret@db.internal/orchard', 'postgres://u:secret@db.internal:port/orchard'],
    good: ['postgres://u:p@db.internal:5432/orchard', 'postgresql://db.internal/orchard?sslmode=require', 'socket:/var/run/postgresql?db=orchard', '/var/run/postgresql orchard',
      // A Unix socket with a user and password: the host left empty, as pg reads it (its README's socket://user:pass@/path).
      'socket://u:p@/var/run/postgresql', 'postgres://u:p@/orchard?host=/var/run/postgresql', 'postgresql://orchard@/orchard?host=/run/postgresql'] },
  // ioredis read 'garbage' as a host and http://… as the host 'http': the limits then counted in
  // each process's memory for ever, /ready only degraded.
  { name: 'REDIS_URL', key: 'redisUrl', message: /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL such as redis:\/\/cache\.internal:6379/,
    bad: ['garbage', 'http://:secret@cache.internal:6379', 'localhost:6379', 'redis://:secret@cache.internal:port'],
    good: ['redis://127.0.0.1:6379', 'rediss://:p@cache.internal:6380/2', 'REDIS://cache.internal', '/run/redis/redis.sock'] },
  // nodemailer read 'garbage' as a server on localhost:587: every usage notice failed, after the start.
  { name: 'SMTP_URL', key: 'smtpUrl', message: /^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL such as smtp:\/\/user:password@mail\.example\.com:587/,
    bad: ['garbage', 'mail.example.com:587', 'https://u:secret@mail.example.com', 'smtp://u:secret@mail.example.com:port'],
    good: ['smtp://u:p@mail.example.com:587', 'smtps://mail.example.com', 'SMTP://localhost:25'] },
] as const;

for (const { name, key, message, bad, good } of ADDRESSES) {
  test(`refuses a ${name} its client would read as another server, without repeating its password`, () => {
    for (const raw of bad) {
      assert.throws(() => loadConfig({ [name]: raw }), (err: Error) => {
        assert.match(err.message, message);
        assert.doesNotMatch(err.message, /secret/);
        return true;
      }, raw);
    }
    for (const value of good) assert.equal(loadConfig({ [name]: value })[key], value);
    assert.throws(() => loadConfig({}, { [key]: 'garbage' }), (err: Error) => message.test(err.message), 'given in code');
  });
}

test('refuses a MAIL_FROM without an address, which nodemailer sent with no From at all', () => {
  for (const raw of ['Orchard notices', 'Orchard <notices>', 'a@b@c', 'Ops\r\nBcc: x@example.com <ops@example.com>', 'Ops <ops@example.com> <x@example.com>']) {
    assert.throws(() => loadConfig({ MAIL_FROM: raw }), { message: `MAIL_FROM must be an e-mail address, alone or after a name, such as Orchard <orchard@example.com>; got '${raw}'.` }, JSON.stringify(raw));
  }
  for (const good of ['ops@example.com', 'Ops <ops@example.com>', '"Orchard, notices" <orchard@localhost>', 'Orchard <orchard@localhost>']) {
    assert.equal(loadConfig({ MAIL_FROM: good }).mailFrom, good);
  }
});

test('refuses a BASE_URL that no Location could be built on: a space, a query, a fragment, a bad port', () => {
  for (const raw of ['https://crm example.com', 'https://crm.example.com?x=1', 'https://crm.example.com/#top', 'https://crm.example.com:99999', 'crm.example.com']) {
    assert.throws(() => loadConfig({ BASE_URL: raw }), { message: `BASE_URL must be an absolute http(s) URL such as https://crm.example.com or https://example.com/crm, without spaces, query or fragment; got '${raw}'.` }, raw);
  }
  for (const [given, kept] of [['https://crm.example.com/', 'https://crm.example.com'], ['http://10.0.0.5:8080/orchard/', 'http://10.0.0.5:8080/orchard'], ['https://[2001:db8::1]', 'https://[2001:db8::1]']]) {
    assert.equal(loadConfig({ BASE_URL: given }).baseUrl, kept);
  }
});

test('refuses a HOST that is neither an IP address nor a host name, naming HOST and what it takes (CONFIG_INVALID)', () => {
  // Each failed only at listen, with the resolver's message (getaddrinfo ENOTFOUND http://0.0.0.0) and no setting named.
  for (const raw of ['http://0.0.0.0', '0.0.0.0:8080', '[::1]', 'my host', 'host_name.example', '-bad.example']) {
    assert.throws(() => loadConfig({ HOST: raw }), {
      code: 'CONFIG_INVALID',
      message: `HOST must be an IP address of this machine to listen on (127.0.0.1, 0.0.0.0 for every IPv4 address, :: for every address) or a name of this machine such as localhost; got '${raw}'.`,
    }, raw);
  }
  for (const good of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'api.internal.example.com', 'fe80::1%eth0']) assert.equal(loadConfig({ HOST: good }).host, good);
  assert.throws(() => loadConfig({}, { host: 'http://x' }), { code: 'CONFIG_INVALID' }, 'given in code');
});

test('every refused setting carries the code CONFIG_INVALID', () => {
  for (const env of [{ PORT: 'abc' }, { LOG_LEVEL: 'loud' }, { RATE_LIMITS: 'yes' }, { DATABASE_URL: 'garbage' }, { ADMIN_KEY: 'short' }]) {
    assert.throws(() => loadConfig(env), { name: 'AppError', code: 'CONFIG_INVALID' }, JSON.stringify(env));
  }
});
