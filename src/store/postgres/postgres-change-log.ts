// The change log's append on PostgreSQL as the text sent with a write's COMMIT (pg-db.ts
// inTransaction commitWith): the counter row's update, whose lock is held to the end of the
// transaction, and the entries' insert in one statement, in the same round trip as the commit.
// Values are inlined as escaped literals, as that message takes no parameters.

import pg from 'pg';
import type { ChangeBuffer } from '../record-writes.js';
import { qi } from './pg-db.js';

const literal = (value: string | null): string => (value === null ? 'NULL' : pg.escapeLiteral(value));

/** The statement appending `log`'s entries in schema `schema`; undefined when there are none. */
export function appendSql(schema: string, log: ChangeBuffer): string | undefined {
  const n = log.entries.length;
  if (n === 0) return undefined;
  const s = qi(schema);
  const rows = log.entries.map((e, i) =>
    `(${i + 1}, ${Math.trunc(e.objectType)}, ${literal(e.recordId)}, ${literal(e.operation)}, ${literal(e.fields)})`).join(', ');
  return `WITH bump AS (UPDATE ${s}.orchard_change_log SET last_seq = last_seq + ${n} WHERE id = 1 RETURNING last_seq)
    INSERT INTO ${s}.orchard_changes (seq, object_type, record_id, operation, fields, user_id, changedon)
    SELECT bump.last_seq - ${n} + u.n, u.object_type, u.record_id, u.operation, u.fields, ${literal(log.author.userId)}, ${literal(log.author.at)}
    FROM bump, (VALUES ${rows}) AS u(n, object_type, record_id, operation, fields)`;
}
