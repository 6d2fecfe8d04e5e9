// Collection names (the plural an object is listed under: GET /api/objects, v2's collectionname, the
// default view "All …") for the standard objects and for custom objects made without one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildObject, pluralOf } from '../../src/schema/build-object.js';
import { STANDARD_OBJECT_SPECS } from '../../src/schema/standard-objects.js';

test('the English plural of a name: -y after a consonant, -s -x -z -ch -sh, and the rest', () => {
  const cases: Array<[string, string]> = [
    ['Account', 'Accounts'], ['Opportunity', 'Opportunities'], ['Activity', 'Activities'], ['Day', 'Days'],
    ['Box', 'Boxes'], ['constructor', 'constructors'], ['Status', 'Statuses'], ['Branch', 'Branches'], ['Wish', 'Wishes'], ['Project Phase', 'Project Phases'],
  ];
  for (const [name, plural] of cases) assert.equal(pluralOf(name), plural, name);
});

test('every standard object\'s collection name is a plural of its name, Cases staying Cases', () => {
  const names = Object.fromEntries(STANDARD_OBJECT_SPECS.map((s) => [s.systemName, buildObject(s).collectionName]));
  assert.equal(names.opportunity, 'Opportunities');
  assert.equal(names.activity, 'Activities');
  assert.equal(names.cases, 'Cases');
  assert.equal(names.account, 'Accounts');
  for (const [system, name] of Object.entries(names)) assert.doesNotMatch(name, /ys$|ss$|eses$/, `${system}: ${name}`);
});
