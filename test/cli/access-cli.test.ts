// `orchard role set`, `orchard org update` and `user create --role` as scripts run them (--json),
// their refusals, and their effect on a server running on the same data directory: at once.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { openStores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';
import { fails, ok, run } from './cli-runner.js';

describe('orchard role set and org update with --json', () => {
  let dir: string;
  let org: { id: string; token: string };

  before(async () => {
    dir = tempDir('orchard-access-cli-');
    org = await ok(dir, ['org', 'create', '--name', 'Acme', '--plan', 'standard', '--email', 'ops@acme.example']) as typeof org;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('role set prints {org, role, grants} with objects by system name, permissions, hidden and read-only fields', async () => {
    const out = await ok(dir, ['role', 'set', '--org', org.id, '--role', 'Sales', '--grant', 'account:read,create;2:read',
      '--hide', 'account:telephone1,contact:emailaddress1', '--readonly', 'account:emailaddress1']);
    assert.deepEqual(out, {
      org: org.id,
      role: 'sales',
      grants: {
        account: { permissions: ['read', 'create'], hidden: ['telephone1'], readOnly: ['emailaddress1'] },
        contact: { permissions: ['read'], hidden: ['emailaddress1'], readOnly: [] },
      },
    });
  });

  test('role list prints {items} as the control API does: the built-in admin first, then each role with its grants, by name', async () => {
    await ok(dir, ['role', 'set', '--org', org.id, '--role', 'viewer', '--grant', 'lead:read', '--hide', 'lead:telephone1']);
    const out = await ok(dir, ['role', 'list', '--org', org.id]) as { items: Array<{ name: string; builtIn: boolean; grants: object; updatedAt: string | null }> };
    assert.deepEqual(Object.keys(out), ['items']);
    assert.deepEqual(out.items[0], { name: 'admin', builtIn: true, grants: {}, updatedAt: null });
    const viewer = out.items.find((r) => r.name === 'viewer')!;
    assert.deepEqual([viewer.builtIn, viewer.grants], [false, { lead: { permissions: ['read'], hidden: ['telephone1'], readOnly: [] } }]);
    const defined = out.items.slice(1).map((r) => r.name);
    assert.deepEqual(defined, [...defined].sort());
    await fails(dir, ['role', 'list', '--org', '00000000-0000-4000-8000-000000000000'], 'ORGANIZATION_NOT_FOUND');
  });

  test('role set replaces the whole definition of the role', async () => {
    await ok(dir, ['role', 'set', '--org', org.id, '--role', 'swap', '--grant', 'account:*', '--hide', 'account:telephone1']);
    await ok(dir, ['role', 'set', '--org', org.id, '--role', 'swap', '--grant', 'lead:read']);
    const stores = openStores(loadConfig({}, { dataDir: dir }));
    try {
      assert.deepEqual((await stores.control.getRole(org.id, 'swap'))?.grants, { lead: { permissions: ['read'], hidden: [], readOnly: [] } });
    } finally {
      await stores.close();
    }
  });

  test('role set refuses admin, an unknown organization, object, permission or field with a message naming it', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const [admin, noOrg, noObject, noPermission, noField, missing] = await Promise.all([
      fails(dir, ['role', 'set', '--org', org.id, '--role', 'admin', '--grant', 'account:read'], 'PARAM_INVALID'),
      fails(dir, ['role', 'set', '--org', unknown, '--role', 'x', '--grant', 'account:read'], 'ORGANIZATION_NOT_FOUND'),
      fails(dir, ['role', 'set', '--org', org.id, '--role', 'x', '--grant', 'acount:read'], 'PARAM_INVALID'),
      fails(dir, ['role', 'set', '--org', org.id, '--role', 'x', '--grant', 'account:write'], 'PARAM_INVALID'),
      fails(dir, ['role', 'set', '--org', org.id, '--role', 'x', '--grant', 'account:read', '--readonly', 'account:phone'], 'PARAM_INVALID'),
      fails(dir, ['role', 'set', '--org', org.id, '--role', 'x'], 'USAGE'),
    ]);
    assert.match(admin.message, /'admin' is built in/);
    assert.match(noOrg.message, new RegExp(unknown));
    assert.match(noObject.message, /no object 'acount'\. Did you mean 'account'\?/);
    assert.match(noPermission.message, /'write' is not a permission/);
    assert.match(noField.message, /--readonly: the account object has no field 'phone'/);
    assert.match(missing.message, /--grant/);
  });

  test('user create --role must name a defined role or admin', async () => {
    const refused = await fails(dir, ['user', 'create', '--org', org.id, '--email', 'x@acme.example', '--role', 'nosuchrole'], 'PARAM_INVALID');
    assert.match(refused.message, /no role 'nosuchrole'\. Define it first with orchard role set/);
    const user = await ok(dir, ['user', 'create', '--org', org.id, '--email', 'ada@acme.example', '--role', 'SALES']);
    const stores = openStores(loadConfig({}, { dataDir: dir }));
    try {
      assert.equal((await stores.control.getUser(user.id as string))?.role, 'sales');
    } finally {
      await stores.close();
    }
  });

  test('org update prints {id, name, plan, minuteLimit}, the minute limit in effect', async () => {
    assert.deepEqual(await ok(dir, ['org', 'update', '--id', org.id, '--plan', 'free']), { id: org.id, name: 'Acme', plan: 'free', minuteLimit: 100 });
    assert.deepEqual(await ok(dir, ['org', 'update', '--id', org.id, '--minute-limit', '250']), { id: org.id, name: 'Acme', plan: 'free', minuteLimit: 250 });
    assert.deepEqual(await ok(dir, ['org', 'update', '--id', org.id, '--plan', 'enterprise', '--minute-limit', '40']), { id: org.id, name: 'Acme', plan: 'enterprise', minuteLimit: 40 });
  });

  test('org update refuses an unknown organization or plan, a zero limit, and nothing to change', async () => {
    const [noOrg, badPlan, zero, nothing] = await Promise.all([
      fails(dir, ['org', 'update', '--id', '00000000-0000-4000-8000-000000000000', '--plan', 'free'], 'ORGANIZATION_NOT_FOUND'),
      fails(dir, ['org', 'update', '--id', org.id, '--plan', 'gold'], 'USAGE'),
      fails(dir, ['org', 'update', '--id', org.id, '--minute-limit', '0'], 'PARAM_INVALID'),
      fails(dir, ['org', 'update', '--id', org.id], 'PARAM_INVALID'),
    ]);
    assert.match(noOrg.message, /No organization has id/);
    assert.match(badPlan.message, /free, standard, professional, enterprise/);
    assert.match(zero.message, /at least 1/);
    assert.match(nothing.message, /--plan, --minute-limit/);
  });

  test('--help explains role set and org update', async () => {
    const [role, update] = await Promise.all([run(['role', 'set', '--help']), run(['org', 'update', '--help'])]);
    for (const p of [/Usage: orchard role set/, /--org/, /--role/, /--grant/, /--hide/, /--readonly/, /admin/]) assert.match(role.stdout, p);
    for (const p of [/Usage: orchard org update/, /--id/, /--plan/, /--minute-limit/]) assert.match(update.stdout, p);
  });
});

describe('role set and org update beside a running server', () => {
  let dir: string;
  let server: RunningServer;

  before(async () => {
    dir = tempDir('orchard-access-live-');
    server = await startServer(loadConfig({}, { dataDir: dir, port: 0, logLevel: 'silent', host: '127.0.0.1' }), () => {});
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string, token: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { tokenid: token } });
    return { status: res.status, body: (await res.json()) as { data?: { Records: Array<Record<string, unknown>> }; Message?: string } };
  };

  test('a plan changed by org update applies to the very next request', async () => {
    const org = await ok(dir, ['org', 'create', '--name', 'Small', '--plan', 'free', '--email', 'small@example.com']);
    const token = org.token as string;
    const before = await get('/api/record/opportunity', token);
    assert.equal(before.status, 402);
    assert.equal(before.body.Message, 'The free plan does not include the opportunity object; upgrade to standard or higher.');
    await ok(dir, ['org', 'update', '--id', org.id as string, '--plan', 'standard']);
    assert.equal((await get('/api/record/opportunity', token)).status, 200);
  });

  test('a role changed by role set applies to the very next request of its users', async () => {
    const org = await ok(dir, ['org', 'create', '--name', 'Roles', '--plan', 'enterprise', '--email', 'roles@example.com']);
    await ok(dir, ['role', 'set', '--org', org.id as string, '--role', 'sales', '--grant', 'contact:read']);
    const { token } = await ok(dir, ['user', 'create', '--org', org.id as string, '--email', 'rep@example.com', '--role', 'sales']) as { token: string };
    assert.equal((await get('/api/record/account', token)).status, 403);

    await ok(dir, ['role', 'set', '--org', org.id as string, '--role', 'sales', '--grant', 'account:read,create', '--hide', 'account:telephone1']);
    const created = await fetch(`${server.url}/api/record/account`, { method: 'POST', headers: { tokenid: token, 'content-type': 'application/json' }, body: JSON.stringify({ accountname: 'Acme' }) });
    assert.equal(created.status, 201);
    const listed = await get('/api/record/account', token);
    assert.equal(listed.status, 200);
    assert.equal(listed.body.data!.Records[0]!.accountname, 'Acme');
    assert.ok(!('telephone1' in listed.body.data!.Records[0]!));
  });
});
