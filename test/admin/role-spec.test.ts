// The `role set` options read against a schema: objects by name or number, permissions, hidden and
// read-only fields, and every mistake refused with a message that names it.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { definableRoleName, parseRoleSpec, roleName } from '../../src/admin/role-spec.js';
import { AppError } from '../../src/errors.js';
import { OrgSchema } from '../../src/schema/org-schema.js';
import { STANDARD_OBJECT_SPECS } from '../../src/schema/standard-objects.js';

const schema = new OrgSchema(STANDARD_OBJECT_SPECS, 1);

describe('parseRoleSpec', () => {
  test('reads objects by system name in any case or by number, permissions in canonical order, hidden and read-only fields', () => {
    const grants = parseRoleSpec(schema, {
      grant: 'Account:create,READ; 2:read ;account:update',
      hide: 'account:telephone1,contact:EmailAddress1',
      readonly: 'account:emailaddress1',
    });
    assert.deepEqual(grants, {
      account: { permissions: ['read', 'create', 'update'], hidden: ['telephone1'], readOnly: ['emailaddress1'] },
      contact: { permissions: ['read'], hidden: ['emailaddress1'], readOnly: [] },
    });
  });

  test('lets a role that creates keep ownerid, statecode and statuscode read-only or hidden: the server fills them', () => {
    assert.deepEqual(parseRoleSpec(schema, { grant: 'account:create', readonly: 'account:statecode,account:statuscode', hide: 'account:ownerid' }), {
      account: { permissions: ['create'], hidden: ['ownerid'], readOnly: ['statecode', 'statuscode'] },
    });
  });

  test('reads * as all four permissions and an empty --grant as a role with none', () => {
    assert.deepEqual(parseRoleSpec(schema, { grant: 'lead:*' }), { lead: { permissions: ['read', 'create', 'update', 'delete'], hidden: [], readOnly: [] } });
    assert.deepEqual(parseRoleSpec(schema, { grant: '' }), {});
  });

  const refused: Array<[string, Parameters<typeof parseRoleSpec>[1], RegExp]> = [
    ['an unknown object, with a suggestion', { grant: 'acount:read' }, /--grant: the organization has no object 'acount'\. Did you mean 'account'\?/],
    ['an unknown permission', { grant: 'account:read,erase' }, /--grant: 'erase' is not a permission \(on account\); use read, create, update, delete/],
    ['an item without a colon', { grant: 'account' }, /--grant: 'account' should be object:permission/],
    ['an unknown field, with a suggestion', { grant: 'account:read', hide: 'account:telephon1' }, /--hide: the account object has no field 'telephon1'\. Did you mean 'telephone1'\?/],
    ['hiding the key', { grant: 'account:read', hide: 'account:accountid' }, /--hide: 'accountid' is the key of account/],
    ['a server-set field made read-only', { grant: 'account:read', readonly: 'account:createdon' }, /--readonly: 'createdon' of account is set by the server/],
    ['a field both hidden and read-only', { grant: 'account:read', hide: 'account:telephone1', readonly: 'account:telephone1' }, /'telephone1' of account is given in both --hide and --readonly/],
    ['a required field not writable by a role that creates', { grant: 'account:create', readonly: 'account:accountname' }, /may create account records, but 'accountname' is required/],
    ['writes to crmuser', { grant: 'crmuser:read,update' }, /crmuser object is read-only through the API/],
  ];
  for (const [what, spec, message] of refused) {
    test(`refuses ${what} with PARAM_INVALID`, () => {
      assert.throws(() => parseRoleSpec(schema, spec), (err: unknown) => {
        assert.ok(err instanceof AppError);
        assert.equal(err.code, 'PARAM_INVALID');
        assert.match(err.message, message);
        return true;
      });
    });
  }
});

describe('role names', () => {
  test('are lowercased and checked; admin is accepted for users but cannot be defined', () => {
    assert.equal(roleName(' Sales '), 'sales');
    assert.equal(roleName('admin'), 'admin');
    assert.throws(() => roleName('no spaces'), /not a role name/);
    assert.throws(() => definableRoleName('Admin'), /built in: it has every permission/);
  });
});
