// The access rules without HTTP (docs/access.md): the plan first (402), then the role (403); hidden
// fields with the name fields of hidden lookups; write checks; what a reply may show.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { accessOf } from '../../src/auth/permissions.js';
import type { ObjectGrant, RoleDefinition } from '../../src/auth/roles.js';
import { AppError } from '../../src/errors.js';
import { OrgSchema } from '../../src/schema/org-schema.js';
import { STANDARD_OBJECT_SPECS } from '../../src/schema/standard-objects.js';
import type { PlanName } from '../../src/auth/plans.js';
import type { TokenIdentity } from '../../src/auth/identity.js';

const schema = new OrgSchema([
  ...STANDARD_OBJECT_SPECS,
  { objectType: 1000, systemName: 'customobject1000', displayName: 'Custom', keyField: 'customobject1000id', primaryField: 'name', fields: [{ name: 'name', type: 'text' }] },
], 1);
const account = schema.resolve('account');
const opportunity = schema.resolve('opportunity');
const crmuser = schema.resolve('crmuser');
const custom = schema.resolve(1000);

function identity(plan: PlanName, roleName: string, grants?: Record<string, ObjectGrant>): TokenIdentity {
  const role: RoleDefinition | null = grants ? { orgId: 'o', name: roleName, grants, updatedAt: '' } : null;
  return {
    tokenHash: 'h',
    lastUsedAt: null,
    org: { id: 'o', name: 'O', plan, minuteLimit: null, primaryUserId: null, createdAt: '' },
    user: { id: 'u', orgId: 'o', email: 'u@example.com', fullname: 'U', role: roleName, createdAt: '', disabledAt: null },
    role,
  };
}

const grant = (permissions: ObjectGrant['permissions'], hidden: string[] = [], readOnly: string[] = []): ObjectGrant => ({ permissions, hidden, readOnly });

/** Runs `fn` and returns the AppError it throws, failing if it throws nothing or something else. */
function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return err;
  }
  assert.fail('expected a refusal');
}

describe('the plan', () => {
  test('refuses an object outside the free plan with 402 naming the plan and the cheapest plan that has it', () => {
    const err = refusal(() => accessOf(identity('free', 'admin')).require(opportunity, 'read'));
    assert.equal(err.code, 'PLAN_EXCLUDES');
    assert.equal(err.status, 402);
    assert.equal(err.message, 'The free plan does not include the opportunity object; upgrade to standard or higher.');
  });

  test('refuses custom objects and batch requests on the free plan, and allows both on standard', () => {
    assert.equal(refusal(() => accessOf(identity('free', 'admin')).require(custom, 'read')).message,
      'The free plan does not include custom objects (customobject1000); upgrade to standard or higher.');
    assert.equal(refusal(() => accessOf(identity('free', 'admin')).requirePlan(account, 'batch')).message,
      'The free plan does not include batch requests (the v3 batch routes, and imports over HTTP); upgrade to standard or higher.');
    const standard = accessOf(identity('standard', 'admin'));
    standard.require(custom, 'delete');
    standard.requirePlan(account, 'batch');
  });

  test('allows the five free objects on the free plan', () => {
    const free = accessOf(identity('free', 'admin'));
    for (const name of ['account', 'contact', 'lead', 'task', 'note']) free.require(schema.resolve(name), 'delete');
  });

  test('is checked before the role: a role without the object still gets 402', () => {
    const err = refusal(() => accessOf(identity('free', 'sales', {})).require(opportunity, 'read'));
    assert.equal(err.code, 'PLAN_EXCLUDES');
  });
});

describe('the role', () => {
  test('admin may do everything the plan includes; crmuser stays read-only for it', () => {
    const admin = accessOf(identity('enterprise', 'admin'));
    for (const p of ['read', 'create', 'update', 'delete'] as const) admin.require(opportunity, p);
    admin.require(crmuser, 'read');
    assert.equal(refusal(() => admin.require(crmuser, 'update')).code, 'OBJECT_READ_ONLY');
  });

  test('refuses a permission the role lacks with 403 naming the object and what to grant', () => {
    const sales = accessOf(identity('enterprise', 'sales', { account: grant(['read', 'create']) }));
    sales.require(account, 'read');
    sales.require(account, 'create');
    const err = refusal(() => sales.require(account, 'delete'));
    assert.equal(err.code, 'PERMISSION_DENIED');
    assert.equal(err.status, 403);
    assert.equal(err.message, "Your role 'sales' may not delete account records; grant account:delete with orchard role set.");
    assert.equal(refusal(() => sales.require(opportunity, 'read')).message,
      "Your role 'sales' may not read opportunity records; grant opportunity:read with orchard role set.");
  });

  test('a role that is not defined may do nothing, and says how to define it', () => {
    const err = refusal(() => accessOf(identity('enterprise', 'ghost')).require(account, 'read'));
    assert.equal(err.code, 'PERMISSION_DENIED');
    assert.match(err.message, /role 'ghost' is not defined .* orchard role set --role ghost/);
  });
});

describe('fields', () => {
  const sales = accessOf(identity('enterprise', 'sales', { account: grant(['read', 'create', 'update'], ['telephone1', 'ownerid'], ['emailaddress1']) }));

  test('hides the named fields and the name field of a hidden lookup', () => {
    assert.deepEqual([...sales.fields(account).hidden].sort(), ['ownerid', 'ownername', 'telephone1']);
    assert.deepEqual([...sales.fields(account).readOnly], ['emailaddress1']);
    assert.equal(accessOf(identity('enterprise', 'admin')).fields(account).hidden.size, 0);
  });

  test('explains a hidden name field by its lookup', () => {
    const err = sales.fields(account).hiddenError(account.fieldsByName.get('ownername')!, " in 'fields'");
    assert.equal(err.code, 'FIELD_FORBIDDEN');
    assert.match(err.message, /^Field 'ownername' of account is hidden for role 'sales' \(it names the hidden lookup 'ownerid'\).* remove account:ownerid from the role's --hide/);
  });

  test('refuses a write body naming a hidden or a read-only field, in any case, and lets others through', () => {
    assert.match(refusal(() => sales.checkWrite(account, { accountname: 'A', Telephone1: '1' })).message, /^Field 'telephone1' of account is hidden for role 'sales'/);
    assert.match(refusal(() => sales.checkWrite(account, { ownername: 'x' })).message, /'ownername'/);
    const ro = refusal(() => sales.checkWrite(account, { emailaddress1: 'a@example.com' }));
    assert.equal(ro.code, 'FIELD_FORBIDDEN');
    assert.equal(ro.message, "Field 'emailaddress1' of account is read-only for role 'sales'; leave it out of the body, or remove account:emailaddress1 from the role's --readonly with orchard role set.");
    sales.checkWrite(account, { accountname: 'A', nosuchfield: 1 });
  });

  test('a reply shows the record without hidden fields, and only the key to a role that may not read', () => {
    const record = { accountid: 'k', accountname: 'A', telephone1: '1', ownerid: 'u', ownername: 'U', emailaddress1: 'e' };
    assert.deepEqual(sales.shown(account, record), { accountid: 'k', accountname: 'A', emailaddress1: 'e' });
    const intake = accessOf(identity('enterprise', 'intake', { account: grant(['create']) }));
    assert.deepEqual(intake.shown(account, record), { accountid: 'k' });
    assert.equal(accessOf(identity('enterprise', 'admin')).shown(account, record), record);
  });
});
