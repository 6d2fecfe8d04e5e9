// Plausible sample records for the demo organization and `orchard seed`: varied names,
// cities, picklist codes and dates, from a seeded generator so runs are reproducible.

import { randomUUID } from 'node:crypto';
import type { ObjectDef, RecordRow } from '../schema/types.js';
import { formatDateTime } from '../schema/values.js';
import { seededRandom } from '../random.js';

const FIRST = ['Ada', 'Ben', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kavya', 'Liam', 'Maya', 'Noah', 'Olga', 'Pedro', 'Quinn', 'Rosa', 'Sven', 'Tara'];
const LAST = ['Abbott', 'Baker', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Hughes', 'Ivanova', 'Jensen', 'Kowalski', 'Lopez', 'Moreau', 'Nakamura', 'Okafor', 'Patel', 'Quist', 'Rossi', 'Schmidt', 'Tanaka'];
const WORDS = ['Acme', 'Blue', 'Cedar', 'Delta', 'Ember', 'Falcon', 'Granite', 'Harbor', 'Iris', 'Juniper', 'Keystone', 'Lumen', 'Maple', 'Nimbus', 'Orchard', 'Pioneer', 'Quartz', 'River', 'Summit', 'Tidal'];
const KINDS = ['Labs', 'Foods', 'Logistics', 'Health', 'Systems', 'Studio', 'Partners', 'Energy', 'Capital', 'Works'];
const CITIES: Array<[string, string]> = [['Lisbon', 'Portugal'], ['Lyon', 'France'], ['Austin', 'USA'], ['Osaka', 'Japan'], ['Leeds', 'UK'], ['Graz', 'Austria'], ['Porto', 'Portugal'], ['Denver', 'USA'], ['Malmö', 'Sweden'], ['Kraków', 'Poland']];


const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

/**
 * `count` sample rows for `obj`, ready for RecordStore.bulkInsert (every stored field present).
 * createdon spreads over the year before `now`; `ownerId` owns and created them.
 */
export function sampleRows(obj: ObjectDef, count: number, opts: { ownerId: string; now: Date; seed: number; startIndex?: number }): RecordRow[] {
  const rnd = seededRandom(opts.seed);
  const rows: RecordRow[] = [];
  const yearMs = 365 * 86_400_000;
  for (let i = 0; i < count; i++) {
    const n = (opts.startIndex ?? 0) + i + 1;
    const first = pick(rnd, FIRST);
    const last = pick(rnd, LAST);
    const company = `${pick(rnd, WORDS)} ${pick(rnd, KINDS)}`;
    const [city, country] = pick(rnd, CITIES);
    const created = formatDateTime(new Date(opts.now.getTime() - Math.floor(rnd() * yearMs)));
    const row: RecordRow = {};
    for (const f of obj.fields) {
      if (f.role === 'derived') continue;
      let v: string | number | null = null;
      switch (f.type) {
        case 'picklist': v = f.options && f.options.length > 0 ? pick(rnd, f.options).value : null; break;
        case 'email': v = f.name.endsWith('1') ? `${first}.${last}${n}@example.com`.toLowerCase() : null; break;
        case 'telephone': v = f.name.endsWith('1') ? `+1 555 ${String(1000 + (n % 9000)).padStart(4, '0')}` : null; break;
        case 'number': v = Math.round(rnd() * 100_000) / (f.precision === 0 ? 1 : 100); break;
        default: break;
      }
      row[f.name] = v;
    }
    row[obj.keyField] = randomUUID();
    row[obj.primaryField] = obj.systemName === 'account' ? `${company} ${n}` : `${first} ${last} ${n}`;
    const textValues: Record<string, string> = {
      firstname: first, lastname: last, accountnumber: `ACC-${String(n).padStart(7, '0')}`,
      billingcity: city, billingcountry: country, websiteurl: `https://${company.toLowerCase().replace(/\s+/g, '-')}.example`,
    };
    for (const [name, value] of Object.entries(textValues)) if (name in row) row[name] = value;
    if ('statecode' in row) row.statecode = rnd() < 0.85 ? 1 : 2;
    if ('statuscode' in row) row.statuscode = 1;
    if ('pcfsystemfield85' in row) row.pcfsystemfield85 = rnd() < 0.7 ? formatDateTime(new Date(opts.now.getTime() - Math.floor(rnd() * yearMs))) : null;
    row.createdon = created;
    row.modifiedon = created;
    row.createdby = opts.ownerId;
    row.modifiedby = opts.ownerId;
    row.ownerid = opts.ownerId;
    rows.push(row);
  }
  return rows;
}
