// Export and import of an object's records (docs/operations.md § Import and export), for the CLI and
// the HTTP routes alike: an export reads the fields the caller's role may see, in key order, a page
// at a time; an import checks each line as a create would and writes the valid ones in batches.

import type { TokenIdentity } from '../auth/identity.js';
import { AppError, isAppError } from '../errors.js';
import { unknownFieldError } from '../schema/record-input.js';
import type { ObjectDef, RecordRow } from '../schema/types.js';
import type { ImportItem } from './record-formats.js';
import type { Service } from './service.js';

/** Records read per store call of an export. */
export const EXPORT_PAGE = 2_000;
/** Lines written per store call (one transaction) of an import. */
export const IMPORT_BATCH = 500;
/** Refused lines reported one by one; past this only counted. */
export const MAX_REPORTED_ERRORS = 1_000;
/** Lines whose lookup names a record of the same object not yet written, held to be written after the rest; past this refused. */
export const MAX_HELD = 10_000;

export interface Export {
  readonly obj: ObjectDef;
  /** The fields written, in the object's order: every field but those hidden from the caller's role. */
  readonly columns: readonly string[];
  /** Records when the export started (a progress bar's total). */
  readonly total: number;
  /** The records, a page at a time; `signal` stops the reading between pages. */
  readonly pages: AsyncIterable<RecordRow[]>;
}

/** Every record of the object the caller may read (403 without read permission), in key order. */
export async function exportRecords(service: Service, identity: TokenIdentity, ref: string, signal?: AbortSignal): Promise<Export> {
  const { records, obj, access } = await service.target(identity, ref, 'read');
  const { hidden } = access.fields(obj);
  const columns = obj.fields.filter((f) => !hidden.has(f.name)).map((f) => f.name);
  const { total } = await records.list(obj, { limit: 1, offset: 0 }, signal);
  async function* pages(): AsyncGenerator<RecordRow[]> {
    for (let after: string | null = null; ;) {
      signal?.throwIfAborted();
      const page = await records.scan(obj, after, EXPORT_PAGE);
      if (page.length > 0) yield page;
      if (page.length < EXPORT_PAGE) return;
      after = page[page.length - 1]![obj.keyField] as string;
    }
  }
  return { obj, columns, total, pages: pages() };
}

export interface LineError {
  readonly line: number;
  readonly code: string;
  readonly message: string;
}

export interface ImportResult {
  readonly object: string;
  readonly created: number;
  /** Lines refused (each reported in `errors` up to MAX_REPORTED_ERRORS). */
  readonly failed: number;
  readonly errors: readonly LineError[];
}

/**
 * Creates a record for each line that a create would accept (create permission, the role's field
 * rules, the body checks, the store's checks), and reports every other by line; nothing stops at a
 * refused line (a line whose lookup names a record of the object not yet written is held and
 * written after the rest: MAX_HELD). A CSV header naming a field the object lacks (FIELD_UNKNOWN), or one field twice
 * (BODY_INVALID), refuses the whole import before any write. Written in batches of IMPORT_BATCH, each one transaction: the batches
 * written before a failure of the input (an unreadable CSV) or an aborted `signal` stay written.
 * `batchPlan`: the plan must include batches too (over HTTP, where an import is one request for any
 * number of records).
 */
export async function importRecords(
  service: Service, identity: TokenIdentity, ref: string, items: AsyncIterable<ImportItem>, onLine?: () => void,
  options: { batchPlan?: boolean; signal?: AbortSignal } = {},
): Promise<ImportResult> {
  const target = await service.target(identity, ref, 'create', options.batchPlan === true);
  const { obj, records } = target;
  let created = 0;
  let failed = 0;
  const errors: LineError[] = [];
  const refuse = (line: number, err: AppError) => {
    failed++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, code: err.code, message: err.message });
  };
  let batch: Array<{ line: number; row: RecordRow }> = [];
  // A lookup to a record of the same object (account.parentaccountid) may name a line further
  // down: an export in key order puts a parent after any child whose id sorts lower. Such lines are
  // held (up to MAX_HELD) and written again once the file is read, while that writes more.
  const selfLookup = obj.fields.some((f) => f.type === 'lookup' && f.role === 'data' && f.target === obj.objectType);
  let held: Array<{ line: number; row: RecordRow; error: AppError }> = [];
  const write = async (lines: Array<{ line: number; row: RecordRow }>) => {
    options.signal?.throwIfAborted();
    const written = await records.createMany(obj, lines.map((b) => b.row), service.author(identity));
    // The change log is pruned when due, as after any write: the first batch starts it, the end waits for it.
    void service.changesWritten(identity, records);
    written.forEach((w, i) => {
      const line = lines[i]!;
      if (!isAppError(w)) created++;
      else if (selfLookup && w.code === 'LOOKUP_TARGET_MISSING' && held.length < MAX_HELD) held.push({ ...line, error: w });
      else refuse(line.line, w);
    });
  };
  const flush = async () => {
    if (batch.length === 0) return;
    await write(batch);
    batch = [];
  };
  const writeHeld = async () => {
    for (let before = -1; held.length > 0 && created > before;) {
      before = created;
      const again = held;
      held = [];
      for (let i = 0; i < again.length; i += IMPORT_BATCH) await write(again.slice(i, i + IMPORT_BATCH));
    }
    if (held.length > 0) await writeCycles();
  };
  // The lines still held name each other in cycles (A's parent B, B's parent A), which no order of
  // creates writes: they are created without their lookups to this object, then given them by
  // updates. A line whose lookup names a record neither among them nor stored is refused first (and
  // so are those that name it, in turn); should one be refused by its create, those naming it are
  // deleted again.
  const writeCycles = async () => {
    const own = obj.fields.filter((f) => f.type === 'lookup' && f.role === 'data' && f.target === obj.objectType).map((f) => f.name);
    const lines = held;
    held = [];
    const links = lines.map((l) => Object.fromEntries(own.filter((n) => l.row[n] !== null && l.row[n] !== undefined).map((n) => [n, l.row[n]!])));
    const author = service.author(identity);
    const stored = new Map<string, boolean>();
    // The lines of `alive` whose lookups all name a line of it or a stored record, the others dropped and refused.
    const keepLinked = async (alive: Map<string, number>): Promise<string[]> => {
      const dropped: string[] = [];
      for (let again = true; again;) {
        again = false;
        for (const [id, i] of alive) {
          for (const v of Object.values(links[i]!)) {
            const key = String(v).toLowerCase();
            if (alive.has(key)) continue;
            if (!stored.has(key)) stored.set(key, (await records.get(obj, key)) !== null);
            if (stored.get(key)) continue;
            refuse(lines[i]!.line, lines[i]!.error);
            alive.delete(id);
            stored.set(id, false);
            dropped.push(id);
            again = true;
            break;
          }
        }
      }
      return dropped;
    };
    const alive = new Map(lines.map((l, i) => [String(l.row[obj.keyField]).toLowerCase(), i]));
    await keepLinked(alive);
    const unlinked = [...alive];
    let refusedCreates = 0;
    for (let start = 0; start < unlinked.length; start += IMPORT_BATCH) {
      options.signal?.throwIfAborted();
      const part = unlinked.slice(start, start + IMPORT_BATCH);
      const written = await records.createMany(obj, part.map(([, i]) => ({ ...lines[i]!.row, ...Object.fromEntries(own.map((n) => [n, null])) })), author);
      written.forEach((w, j) => {
        if (!isAppError(w)) return;
        refuse(lines[part[j]![1]]!.line, w);
        alive.delete(part[j]![0]);
        stored.set(part[j]![0], false);
        refusedCreates++;
      });
    }
    if (refusedCreates > 0) {
      const gone = await keepLinked(alive);
      for (let start = 0; start < gone.length; start += IMPORT_BATCH) await records.deleteMany(obj, gone.slice(start, start + IMPORT_BATCH), author);
    }
    const linked = [...alive].filter(([, i]) => Object.keys(links[i]!).length > 0).map(([id, i]) => ({ id, changes: links[i]!, line: lines[i]!.line }));
    let refusedLinks = 0;
    for (let start = 0; start < linked.length; start += IMPORT_BATCH) {
      const part = linked.slice(start, start + IMPORT_BATCH);
      const updated = await records.updateMany(obj, part.map(({ id, changes }) => ({ id, changes })), author);
      // Only a write of another request in between (a record deleted) refuses one: the line is reported, its record stays without the lookup.
      updated.forEach((u, j) => {
        if (!isAppError(u)) return;
        refuse(part[j]!.line, u);
        refusedLinks++;
      });
    }
    created += alive.size - refusedLinks;
  };
  const writtenSoFar = (before: string) => `The lines before ${before} were imported: ${created} record(s) created, ${failed} line(s) refused.`;
  const source = items[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<ImportItem>;
    try {
      next = await source.next();
    } catch (err) {
      // The source stopped the import (BODY_TOO_LARGE past the request limit): what it had read is
      // written, and the failure says what was. Anything else (the client gone) stops it as it is.
      if (!isAppError(err)) throw err;
      await flush();
      await writeHeld();
      throw new AppError(err.code, `${err.message} ${writtenSoFar('the limit')}`);
    }
    if (next.done) break;
    const item = next.value;
    if ('columns' in item) {
      const columnOf = new Map<string, number>();
      item.columns.forEach((name, i) => {
        const field = obj.fieldsByName.get(name.toLowerCase());
        if (!field) throw unknownFieldError(obj, name, ' in the CSV header');
        // Names are matched ignoring case: one column of the two would be dropped unseen.
        const first = columnOf.get(field.name);
        if (first !== undefined) {
          throw new AppError('BODY_INVALID', `The CSV header names the field '${field.name}' twice, in columns ${first + 1} and ${i + 1}. Keep one of the two columns, and import the file again; nothing was imported.`);
        }
        columnOf.set(field.name, i);
      });
      continue;
    }
    if ('unreadable' in item) {
      // What was read before is written, and the failure says what: the caller imports the rest.
      await flush();
      await writeHeld();
      const { lastRead, reason } = item.unreadable;
      throw new AppError('BODY_INVALID', lastRead > 0
        ? `The CSV cannot be read past line ${lastRead}: ${reason}. ${writtenSoFar('it')} Fix the file after line ${lastRead} and import the lines after it.`
        : `The CSV cannot be read: ${reason}. Nothing was imported.`);
    }
    onLine?.();
    if ('error' in item) {
      refuse(item.line, item.error);
      continue;
    }
    try {
      batch.push({ line: item.line, row: service.rowToCreate(identity, target, item.body) });
    } catch (err) {
      if (!isAppError(err)) throw err;
      refuse(item.line, err);
    }
    if (batch.length >= IMPORT_BATCH) await flush();
  }
  await flush();
  await writeHeld();
  await records.bulkLoaded?.(obj, created);
  await service.changesWritten(identity, records);
  // Lines are reported in order: a store refusal comes back with its batch, after lines checked later.
  errors.sort((a, b) => a.line - b.line);
  return { object: obj.systemName, created, failed, errors };
}
