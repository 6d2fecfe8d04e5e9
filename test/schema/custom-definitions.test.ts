// The definition of a custom field (schema/custom-definitions.ts) against the bound on an object's
// stored fields: past it, adding a column failed in the database (500, and on SQLite the object
// could no longer take records) where the definition must be a 400 naming the object.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ObjectSpec } from '../../src/schema/build-object.js';
import { customFieldSpec, DEFINITION_LIMITS } from '../../src/schema/custom-definitions.js';
import { OrgSchema } from '../../src/schema/org-schema.js';
import { STANDARD_OBJECT_SPECS } from '../../src/schema/standard-objects.js';
import { storedFields } from '../../src/schema/types.js';
import { isAppError } from '../../src/errors.js';

/** The standard objects, the account given text fields until it has `stored` stored fields. */
function schemaWithAccountOf(stored: number): OrgSchema {
  const base = new OrgSchema(STANDARD_OBJECT_SPECS, 1).resolve('account');
  const extra = stored - storedFields(base).length;
  const specs: ObjectSpec[] = STANDARD_OBJECT_SPECS.map((s) => (s.systemName !== 'account' ? s : {
    ...s, fields: [...s.fields, ...Array.from({ length: extra }, (_, i) => ({ name: `pcfwide${i}`, type: 'text' as const, label: `Wide ${i}` }))],
  }));
  return new OrgSchema(specs, 2);
}

test('adds a field to an object one short of the most stored fields, and refuses one more with 400 DEFINITION_INVALID', () => {
  const short = schemaWithAccountOf(DEFINITION_LIMITS.fields - 1);
  assert.equal(customFieldSpec(short, short.resolve('account'), 'number', {}).name, 'pcfsystemfield86');
  const full = schemaWithAccountOf(DEFINITION_LIMITS.fields);
  assert.equal(storedFields(full.resolve('account')).length, 500);
  assert.throws(() => customFieldSpec(full, full.resolve('account'), 'number', {}), (err) => isAppError(err) && err.code === 'DEFINITION_INVALID' && err.status === 400
    && err.message === 'The account object has 500 fields, the most an object may have (its standard fields included); a field cannot be added to it.');
});
