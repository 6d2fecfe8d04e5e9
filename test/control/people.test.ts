// People and tokens (docs/operations.md § People and tokens), on both stores: through the control
// API of a server, and through `orchard` commands on the same data beside it (another connection, as
// another process has), each taking effect on the server's next request. No reply but the one that
// creates a token shows it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../../src/cli.js';
import { BOUND_MS } from '../../src/store/postgres/cache-listener.js';
import { createPool } from '../../src/store/postgres/pg-db.js';
import type { TestContext } from '../helpers.js';
import { HTTP_STORES } from '../query/http-stores.js';
import { oneJsonObject } from '../cli/cli-runner.js';
import { DATABASE_URL } from '../services.js';

const KEY = 'test-admin-key-0123456789abcdef';

for (const store of HTTP_STORES) {
  describe(`people and tokens on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    before(async () => (ctx = await store.context({ config: { adminKey: KEY } })));
    after(() => ctx.close());

    const control = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      ctx.request({ method, url: `/_orchard${url}`, token: null, headers: { authorization: `Bearer ${KEY}` }, ...(payload ? { payload } : {}) });
    const read = (token: string) => ctx.request({ method: 'GET', url: '/api/record/account?pagesize=1', token });
    /**
     * The status a token gets once the server has seen a change the CLI (another store, as another
     * process) committed: at once on SQLite and on PostgreSQL without PG_CACHE; within BOUND_MS with it
     * (docs/scaling.md § What a process keeps in memory), asked until then and failing past it.
     */
    const readAfterCli = async (token: string, expected: number): Promise<number> => {
      const bound = ctx.config.databaseUrl && ctx.config.pgCache ? BOUND_MS + 500 : 0;
      const start = Date.now();
      for (;;) {
        const status = (await read(token)).statusCode;
        if (status === expected || Date.now() - start >= bound) return status;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    /** `orchard --json …` on this context's data (directory or PostgreSQL schema), in this process. */
    const cli = async (args: string[]): Promise<{ code: number; body: Record<string, any> }> => {
      let stdout = '';
      const env = ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl, DATABASE_SCHEMA: ctx.config.databaseSchema } : {};
      const code = await runCli(['--data-dir', ctx.dir, '--json', ...args], { env, output: { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => {} } } });
      return { code, body: oneJsonObject({ code, stdout, stderr: '' }) };
    };

    test('users: listed, created, given a role, disabled and enabled, through the control API', async () => {
      const list = await control('GET', `/organizations/${ctx.orgId}/users`);
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json().items.map((u: { id: string; disabled: boolean }) => [u.id, u.disabled]), [[ctx.userId, false]]);

      const made = await control('POST', `/organizations/${ctx.orgId}/users`, { email: 'rep@example.com' });
      assert.equal(made.statusCode, 201);
      const { user, token } = made.json();
      assert.equal(user.role, 'admin');
      assert.equal((await read(token)).statusCode, 200);

      const noRole = await control('PATCH', `/users/${user.id}`, { role: 'sales' });
      assert.equal(noRole.statusCode, 400);
      assert.match(noRole.json().error.message, /no role 'sales'/);
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'sales', grant: 'account:read' });
      const sales = await control('PATCH', `/users/${user.id}`, { role: 'sales' });
      assert.equal(sales.json().role, 'sales');
      assert.equal((await ctx.request({ method: 'POST', url: '/api/record/account', token, payload: { accountname: 'X' } })).statusCode, 403);

      const disabled = await control('PATCH', `/users/${user.id}`, { disabled: true });
      assert.equal(disabled.json().disabled, true);
      const refused = await read(token);
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.headers['x-error-code'], 'TOKEN_INVALID');
      assert.equal(refused.json().Message, `The API token's user ${user.id} is disabled (since ${disabled.json().disabledAt}), and so are all their tokens, new ones included. An administrator enables them with \`orchard user enable --id ${user.id}\`.`);
      const unknown = await read('00000000-0000-4000-8000-00000000beef');
      assert.match(unknown.json().Message, /unknown or has been revoked/);
      assert.equal((await control('PATCH', `/users/${user.id}`, { disabled: false })).json().disabledAt, null);
      assert.equal((await read(token)).statusCode, 200);

      assert.equal((await control('GET', `/organizations/00000000-0000-4000-8000-000000000000/users`)).json().error.code, 'ORGANIZATION_NOT_FOUND');
      assert.equal((await control('PATCH', `/users/nope`, { disabled: true })).json().error.code, 'USER_NOT_FOUND');
    });

    test('roles: listed with the built-in admin first, defined and replaced in the terms of role set, effective at the next request', async () => {
      const initial = await control('GET', `/organizations/${ctx.orgId}/roles`);
      assert.equal(initial.statusCode, 200);
      assert.deepEqual(initial.json().items[0], { name: 'admin', builtIn: true, grants: {}, updatedAt: null });
      const names = () => initial.json().items.map((r: { name: string }) => r.name) as string[];
      assert.ok(!names().includes('viewer'));

      const defined = await ctx.request({
        method: 'PUT', url: `/_orchard/organizations/${ctx.orgId}/roles/Viewer`, token: null, headers: { authorization: `Bearer ${KEY}` },
        payload: { grant: 'account:read;contact:read,create', hide: 'account:telephone1', readonly: 'contact:emailaddress1' },
      });
      assert.equal(defined.statusCode, 200, defined.body);
      const role = defined.json() as Record<string, unknown>;
      assert.deepEqual({ ...role, updatedAt: typeof role.updatedAt }, {
        name: 'viewer', builtIn: false, updatedAt: 'string',
        grants: {
          account: { permissions: ['read'], hidden: ['telephone1'], readOnly: [] },
          contact: { permissions: ['read', 'create'], hidden: [], readOnly: ['emailaddress1'] },
        },
      });
      const later = (await control('GET', `/organizations/${ctx.orgId}/roles`)).json().items.map((r: { name: string }) => r.name) as string[];
      assert.deepEqual(later, [...names(), 'viewer'].sort((a, b) => (a === 'admin' ? -1 : b === 'admin' ? 1 : a.localeCompare(b))));
      const { user, token } = (await control('POST', `/organizations/${ctx.orgId}/users`, { email: 'viewer@example.com', role: 'viewer' })).json();
      assert.equal(user.role, 'viewer');
      assert.equal((await read(token)).statusCode, 200);
      assert.equal((await ctx.request({ method: 'POST', url: '/api/record/account', token, payload: { accountname: 'No' } })).statusCode, 403);

      const narrowed = await ctx.request({ method: 'PUT', url: `/_orchard/organizations/${ctx.orgId}/roles/viewer`, token: null, headers: { authorization: `Bearer ${KEY}` }, payload: { grant: 'contact:read' } });
      assert.equal(narrowed.statusCode, 200);
      assert.equal((await read(token)).statusCode, 403, 'the whole definition replaced: account is out of reach');

      const typo = await ctx.request({ method: 'PUT', url: `/_orchard/organizations/${ctx.orgId}/roles/viewer`, token: null, headers: { authorization: `Bearer ${KEY}` }, payload: { grant: 'acount:read' } });
      assert.equal(typo.statusCode, 400);
      assert.match(typo.json().error.message, /^grant: the organization has no object 'acount'\. Did you mean 'account'/, 'the message names the body member, not the CLI\'s option');
      const hidden = await ctx.request({ method: 'PUT', url: `/_orchard/organizations/${ctx.orgId}/roles/viewer`, token: null, headers: { authorization: `Bearer ${KEY}` }, payload: { grant: 'account:read', hide: 'account:telephone1', readonly: 'account:telephone1' } });
      assert.equal(hidden.json().error.message, "'telephone1' of account is given in both hide and readonly; a hidden field is never written, so give it in one of them.");
      const builtIn = await ctx.request({ method: 'PUT', url: `/_orchard/organizations/${ctx.orgId}/roles/admin`, token: null, headers: { authorization: `Bearer ${KEY}` }, payload: { grant: 'account:read' } });
      assert.equal(builtIn.statusCode, 400);
      assert.equal((await control('GET', '/organizations/00000000-0000-4000-8000-000000000000/roles')).statusCode, 404);
    });

    test('roles: deleted through the control API or the CLI only once no user holds them; admin and unknown roles refused', async () => {
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'temp', grant: 'account:read' });
      const holders = [];
      for (const email of ['t1@example.com', 't2@example.com']) {
        holders.push((await control('POST', `/organizations/${ctx.orgId}/users`, { email, role: 'temp' })).json());
      }

      const held = await control('DELETE', `/organizations/${ctx.orgId}/roles/Temp`);
      assert.equal(held.statusCode, 409);
      assert.equal(held.json().error.code, 'ROLE_IN_USE');
      assert.equal(held.json().error.message,
        `Role 'temp' of organization ${ctx.orgId} is held by 2 user(s): t1@example.com (${holders[0].user.id}), t2@example.com (${holders[1].user.id}). `
        + 'Give them another role first (orchard user role --id <user id> --role <role>), then delete it.');
      const viaCli = await cli(['role', 'delete', '--org', ctx.orgId, '--role', 'temp']);
      assert.deepEqual([viaCli.code, viaCli.body.error.code], [1, 'ROLE_IN_USE']);
      assert.equal((await read(holders[0].token)).statusCode, 200, 'a refused deletion changes nothing');

      await control('PATCH', `/users/${holders[0].user.id}`, { role: 'admin' });
      await control('DELETE', `/users/${holders[1].user.id}`);
      const deleted = await control('DELETE', `/organizations/${ctx.orgId}/roles/temp`);
      assert.deepEqual([deleted.statusCode, deleted.json()], [200, { orgId: ctx.orgId, name: 'temp', deleted: true }]);
      assert.ok(!(await control('GET', `/organizations/${ctx.orgId}/roles`)).json().items.some((r: { name: string }) => r.name === 'temp'));
      const again = await control('DELETE', `/organizations/${ctx.orgId}/roles/temp`);
      assert.deepEqual([again.statusCode, again.json().error.code], [404, 'ROLE_NOT_FOUND']);
      assert.match(again.json().error.message, /has no role 'temp'\. List its roles with orchard role list/);
      const assign = await control('PATCH', `/users/${holders[0].user.id}`, { role: 'temp' });
      assert.match(assign.json().error.message, /no role 'temp'/);

      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'temp2', grant: 'account:read' });
      assert.deepEqual(await cli(['role', 'delete', '--org', ctx.orgId, '--role', 'TEMP2']), { code: 0, body: { org: ctx.orgId, role: 'temp2', deleted: true } });
      assert.equal(await ctx.stores.control.getRole(ctx.orgId, 'temp2'), null);

      const builtIn = await control('DELETE', `/organizations/${ctx.orgId}/roles/admin`);
      assert.deepEqual([builtIn.statusCode, builtIn.json().error.code], [400, 'PARAM_INVALID']);
      assert.match(builtIn.json().error.message, /'admin' is built in: .* cannot be deleted\. Give its users another role/);
      assert.equal((await control('DELETE', '/organizations/00000000-0000-4000-8000-000000000000/roles/temp')).json().error.code, 'ORGANIZATION_NOT_FOUND');
      assert.equal((await control('DELETE', `/organizations/${ctx.orgId}/roles/bad%20name`)).json().error.code, 'PARAM_INVALID');
    });

    test('usage: the organization\'s windows and days, as its token reads them, counting nothing', async () => {
      await read(ctx.token);
      await read(ctx.token);
      const viaControl = await control('GET', `/organizations/${ctx.orgId}/usage`);
      assert.equal(viaControl.statusCode, 200);
      const usage = viaControl.json();
      assert.equal(usage.counted, true);
      assert.ok(usage.minute.used >= 2 && usage.day.used >= 2, JSON.stringify(usage));
      assert.equal(usage.days.length, 30);
      assert.equal(usage.days.at(-1).count, usage.day.used);
      const viaToken = (await ctx.request({ method: 'GET', url: '/api/usage' })).json().data;
      assert.deepEqual(viaToken.day, usage.day, 'the same count: neither read was counted');
      assert.equal((await control('GET', '/organizations/00000000-0000-4000-8000-000000000000/usage')).statusCode, 404);
    });

    test('tokens: listed without the token, revoked by id, rotated; a revoked one cannot be rotated', async () => {
      const { token: first } = (await control('POST', `/users/${ctx.userId}/tokens`)).json();
      assert.equal((await read(first)).statusCode, 200); // a use, recorded as the last use
      const listed = await control('GET', `/users/${ctx.userId}/tokens`);
      assert.equal(listed.statusCode, 200);
      assert.ok(!listed.body.includes(first) && !listed.body.includes(ctx.token), 'no token in the list');
      const mine = listed.json().items.find((t: { last4: string }) => t.last4 === first.slice(-4));
      assert.ok(mine, 'the token is told apart by its last 4 characters');
      assert.equal(mine.lastUsedAt, new Date(ctx.clock.now()).toISOString());
      assert.equal(mine.revokedAt, null);

      const rotated = await control('POST', `/tokens/${mine.id}/rotate`);
      assert.equal(rotated.statusCode, 201);
      const { token: second, created, revoked } = rotated.json();
      assert.equal(revoked.id, mine.id);
      assert.equal(created.last4, second.slice(-4));
      assert.equal((await read(first)).statusCode, 401);
      assert.equal((await read(second)).statusCode, 200);
      const again = await control('POST', `/tokens/${mine.id}/rotate`);
      assert.equal(again.statusCode, 400);
      assert.match(again.json().error.message, /revoked/);

      const gone = await control('POST', `/tokens/${created.id}/revoke`);
      assert.equal(gone.statusCode, 200);
      assert.ok(gone.json().revokedAt);
      assert.ok(!gone.body.includes(second));
      assert.equal((await read(second)).statusCode, 401);
      const unknown = await control('POST', '/tokens/00000000-0000-4000-8000-000000000000/revoke');
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.headers['x-error-code'], 'TOKEN_NOT_FOUND');
    });

    test('a token\'s last use is recorded in real time, not on a moved clock (control-api.md § Clock)', async () => {
      const { token } = (await control('POST', `/users/${ctx.userId}/tokens`)).json();
      assert.equal((await control('POST', '/clock/set', { at: '2031-01-01T00:00:00Z', frozen: true })).statusCode, 200);
      try {
        assert.equal((await read(token)).statusCode, 200);
      } finally {
        assert.equal((await control('DELETE', '/clock')).statusCode, 200);
      }
      const mine = (await control('GET', `/users/${ctx.userId}/tokens`)).json().items.find((t: { last4: string }) => t.last4 === token.slice(-4));
      assert.equal(mine.lastUsedAt, new Date(ctx.clock.now()).toISOString());
    });

    test('names and e-mails: at most 200 characters, not blank, no NUL, names without control or bidirectional characters; refused alike on both stores and nothing made', async () => {
      const refused = async (url: string, payload: object, pattern: RegExp) => {
        const res = await control('POST', url, payload);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.code, 'PARAM_INVALID');
        assert.match(res.json().error.message, pattern);
      };
      const users = `/organizations/${ctx.orgId}/users`;
      await refused(users, { email: 'nul\u0000x@example.com' }, /NUL/);
      await refused(users, { email: `${'a'.repeat(189)}@example.com` }, /201 characters long; the most is 200/);
      await refused(users, { email: 'named@example.com', fullname: '   ' }, /full name must not be empty/);
      await refused(users, { email: 'named@example.com', fullname: 'Ada\u0000Lopez' }, /NUL/);
      await refused(users, { email: 'named@example.com', fullname: 'F'.repeat(201) }, /the most is 200/);
      await refused('/organizations', { name: 'Acme\u0000', email: 'o@example.com' }, /NUL/);
      await refused('/organizations', { name: 'N'.repeat(201), email: 'o@example.com' }, /the most is 200/);
      // As object and field names (docs/api.md § Names and labels): nothing that displays a name as another or shows as nothing.
      await refused(users, { email: 'named@example.com', fullname: 'Ada\u202ELopez' },
        /^The full name: it contains U\+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control that can make a name display as another, at position 3\. Remove it/);
      await refused(users, { email: 'named@example.com', fullname: 'Ada\tLopez' }, /the control character U\+0009 at position 3/);
      await refused('/organizations', { name: 'Acme\u2066Corp', email: 'o@example.com' }, /^An organization's name: it contains U\+2066 LEFT-TO-RIGHT ISOLATE/);
      await refused('/organizations', { name: 'Ac\uFEFFme', email: 'o@example.com' }, /U\+FEFF ZERO WIDTH NO-BREAK SPACE, which shows as nothing/);
      const hebrew = await control('POST', users, { email: 'dana@example.com', fullname: 'דנה כהן' });
      assert.equal(hebrew.statusCode, 201, hebrew.body);
      const emails = (await control('GET', users)).json().items.map((u: { email: string }) => u.email);
      assert.ok(!emails.some((e: string) => e.startsWith('nul') || e.startsWith('named') || e.length > 200), emails.join());

      const longest = `${'a'.repeat(188)}@example.com`;
      const made = await control('POST', users, { email: longest, fullname: '  Ada Lopez  ' });
      assert.equal(made.statusCode, 201, made.body);
      assert.deepEqual([made.json().user.email, made.json().user.fullname], [longest, 'Ada Lopez']);
    });

    test('deleting a user stops their tokens and keeps their records; the primary user is not deleted', async () => {
      const { user, token } = (await control('POST', `/organizations/${ctx.orgId}/users`, { email: 'leaver@example.com', fullname: 'Lee Leaver' })).json();
      const made = await ctx.request({ method: 'POST', url: '/api/record/account', token, payload: { accountname: 'Left behind' } });
      const id = made.json().data.Record.accountid;
      const deleted = await control('DELETE', `/users/${user.id}`);
      assert.deepEqual(deleted.json(), { id: user.id, orgId: ctx.orgId, email: 'leaver@example.com', deleted: true });
      assert.equal((await read(token)).statusCode, 401);
      const record = (await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).json().data.Record;
      assert.deepEqual([record.ownerid, record.ownername], [user.id, 'Lee Leaver']);
      const primary = await control('DELETE', `/users/${ctx.userId}`);
      assert.equal(primary.statusCode, 400);
      assert.match(primary.json().error.message, /primary user/);
      assert.equal((await control('DELETE', `/users/${user.id}`)).json().error.code, 'USER_NOT_FOUND');
    });

    test('the CLI beside the server: user list/role/disable/enable/delete, token list/revoke --id/rotate, each one JSON object, effective at the server\'s next request', async () => {
      const made = await cli(['user', 'create', '--org', ctx.orgId, '--email', 'cli@example.com']);
      const { id: userId, token } = made.body;
      const users = await cli(['user', 'list', '--org', ctx.orgId]);
      assert.equal(users.code, 0);
      assert.ok(users.body.items.some((u: { id: string; email: string }) => u.id === userId && u.email === 'cli@example.com'));
      assert.deepEqual(Object.keys(users.body), ['items']);

      assert.equal((await read(token)).statusCode, 200);
      const disabled = await cli(['user', 'disable', '--id', userId]);
      assert.equal(disabled.body.disabled, true);
      assert.equal(await readAfterCli(token, 401), 401, 'refused at once (with PG_CACHE, within its bound)');
      assert.equal((await cli(['user', 'enable', '--id', userId])).body.disabled, false);
      assert.equal(await readAfterCli(token, 200), 200);
      assert.equal((await cli(['user', 'role', '--id', userId, '--role', 'admin'])).body.role, 'admin');

      const tokens = await cli(['token', 'list', '--user', userId]);
      assert.deepEqual(Object.keys(tokens.body), ['items']);
      assert.equal(tokens.body.items.length, 1);
      assert.ok(!JSON.stringify(tokens.body).includes(token));
      const rotated = await cli(['token', 'rotate', '--id', tokens.body.items[0].id]);
      assert.equal(rotated.code, 0);
      assert.equal(await readAfterCli(token, 401), 401);
      assert.equal((await read(rotated.body.token)).statusCode, 200);
      const revoked = await cli(['token', 'revoke', '--id', rotated.body.created.id]);
      assert.equal(revoked.body.revoked, true);
      let text = '';
      await runCli(['--data-dir', ctx.dir, 'token', 'revoke', '--id', rotated.body.created.id], { env: ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl, DATABASE_SCHEMA: ctx.config.databaseSchema } : {}, output: { stdout: { write: (t: string) => (text += t) }, stderr: { write: () => {} } } });
      assert.equal(text, `Token ${rotated.body.created.id} (…${rotated.body.token.slice(-4)}) is revoked, since ${revoked.body.revokedAt}.\n`, 'revoking again says since when, not that it was revoked now');
      assert.equal(await readAfterCli(rotated.body.token, 401), 401);
      const both = await cli(['token', 'revoke', '--id', 'x', '--token', 'y']);
      assert.equal(both.code, 1);
      assert.equal(both.body.error.code, 'PARAM_INVALID');
      assert.equal((await cli(['token', 'revoke', '--id', '00000000-0000-4000-8000-000000000000'])).body.error.code, 'TOKEN_NOT_FOUND');

      const created = await cli(['token', 'create', '--user', userId]);
      assert.equal((await cli(['user', 'delete', '--id', userId])).body.deleted, true);
      assert.equal(await readAfterCli(created.body.token, 401), 401);
      assert.equal((await cli(['token', 'list', '--user', userId])).body.error.code, 'USER_NOT_FOUND');
    });

    test('deleting an organization: through the CLI and the control API, its tokens refused at once and its records gone', async () => {
      for (const how of ['cli', 'control'] as const) {
        const { organization, token } = (await control('POST', '/organizations', { name: `Doomed ${how}`, email: 'x@example.com' })).json();
        const account = await ctx.request({ method: 'POST', url: '/api/record/account', token, payload: { accountname: 'Gone' } });
        assert.equal(account.statusCode, 201);
        // A file on a record and a snapshot: both go with the organization.
        const attached = await ctx.request({
          method: 'POST', url: `/api/v2/record/account/${account.json().data.Record.accountid}/files`, token, headers: { 'content-type': 'multipart/form-data; boundary=b0' },
          payload: Buffer.from('--b0\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nx\r\n--b0--\r\n'),
        });
        assert.equal(attached.statusCode, 200, attached.body);
        assert.equal((await control('POST', `/organizations/${organization.id}/snapshots`, { name: 'kept' })).statusCode, 201);
        const taken = await ctx.stores.records.org(organization.id); // as a request under way holds it
        const deleted = how === 'cli' ? (await cli(['org', 'delete', '--id', organization.id, '--yes'])).body : (await control('DELETE', `/organizations/${organization.id}`)).json();
        assert.deepEqual(deleted, { id: organization.id, name: `Doomed ${how}`, deleted: true });
        if (how === 'cli') await readAfterCli(token, 401);
        const refused = await read(token);
        assert.equal(refused.statusCode, 401);
        assert.ok(!refused.body.includes(token), 'the error does not repeat the token');
        assert.ok(!(await control('GET', '/organizations')).json().items.some((o: { id: string }) => o.id === organization.id));
        if (how === 'control') {
          // The server's own store dropped it: nothing under way there makes it anew.
          const gone = (err: unknown) => (err as { code?: string }).code === 'ORGANIZATION_NOT_FOUND';
          await assert.rejects(ctx.stores.records.org(organization.id), gone);
          if (!ctx.config.databaseUrl) await assert.rejects(taken.schema(), gone);
          else await assert.rejects(taken.schema());
        }
        if (ctx.config.databaseUrl) {
          const pool = createPool(DATABASE_URL!, { max: 1 });
          try {
            const { rows } = await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [`${ctx.config.databaseSchema}_org_${organization.id.replace(/-/g, '')}`]);
            assert.equal(rows.length, 0, 'the schema is dropped');
          } finally {
            await pool.end();
          }
        } else {
          assert.ok(!fs.readdirSync(path.join(ctx.dir, 'orgs')).some((f) => f.startsWith(organization.id)), 'the files are removed');
          for (const dir of ['files', 'snapshots']) assert.ok(!fs.existsSync(path.join(ctx.dir, dir, organization.id)), `its ${dir} are removed`);
        }
        assert.deepEqual(await ctx.stores.records.listSnapshots(organization.id), [], 'its snapshots are removed');
        assert.equal((await control('DELETE', `/organizations/${organization.id}`)).json().error.code, 'ORGANIZATION_NOT_FOUND');
      }
      assert.equal((await read(ctx.token)).statusCode, 200, 'other organizations are untouched');
    });
  });
}
