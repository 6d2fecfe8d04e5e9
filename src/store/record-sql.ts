// Builds the SQL of record reads for any dialect from object definitions: one table per
// object, derived name fields as LEFT JOINs to the lookup's target. Used by every store.

import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { OrgSchema } from '../schema/org-schema.js';
import type { FieldDef, ObjectDef } from '../schema/types.js';

/** Table alias of the record being read. */
export const ROW = 'r';

/** SELECT of all (or some) fields of an object, derived names joined in; `FROM <table> AS r`. */
export function selectRecords(
  k: Kysely<any>,
  schema: OrgSchema,
  obj: ObjectDef,
  fields: readonly FieldDef[] = obj.fields,
): SelectQueryBuilder<any, any, any> {
  let q: SelectQueryBuilder<any, any, any> = k.selectFrom(`${obj.systemName} as ${ROW}`);
  const selections: string[] = [];
  for (const f of fields) {
    if (f.role !== 'derived') {
      selections.push(`${ROW}.${f.name}`);
      continue;
    }
    const lookup = obj.fieldsByName.get(f.derivedFrom!)!;
    const target = schema.find(lookup.target!);
    if (!target) continue; // a lookup to an object that no longer exists names nothing
    const alias = `j_${f.name}`;
    q = q.leftJoin(`${target.systemName} as ${alias}`, `${alias}.${target.keyField}`, `${ROW}.${lookup.name}`);
    selections.push(`${alias}.${target.primaryField} as ${f.name}`);
  }
  return q.select(selections);
}

/** The GET-list order: newest first, ties by key in the same direction so one (createdon, key) index serves it. */
export function listOrder(q: SelectQueryBuilder<any, any, any>, obj: ObjectDef): SelectQueryBuilder<any, any, any> {
  return q.orderBy(`${ROW}.createdon`, 'desc').orderBy(`${ROW}.${obj.keyField}`, 'desc');
}
