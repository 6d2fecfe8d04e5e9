// The items of a v3 batch body: `{"data": [...]}` with 1–500 items, each checked on its own so a bad
// item is skipped and reported while the others are written (docs/compat.md).

import { AppError, isAppError, quote } from '../errors.js';
import type { ObjectDef } from '../schema/types.js';

/** Items per batch request (docs/api.md: at most 500 records per request). */
export const BATCH_MAX = 500;

/** What became of one item: written (the record, for create and update) or refused with an AppError. */
export type ItemOutcome<W> = { readonly index: number; readonly written: W } | { readonly index: number; readonly error: AppError };

export const isRecordBody = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function notAnObject(what: string, obj: ObjectDef, got: unknown): AppError {
  return new AppError('BODY_INVALID', `${what} must be a JSON object of field names and values, such as {"${obj.primaryField}": "…"}; got ${quote(got)}.`);
}

/** The `data` array of a batch body, 1–500 items. */
export function itemsOf(body: unknown, example: string): unknown[] {
  const data = isRecordBody(body) ? body.data : undefined;
  if (!Array.isArray(data)) throw new AppError('BODY_INVALID', `The request body must be {"data": [...]}, such as ${example}.`);
  if (data.length === 0) throw new AppError('BODY_INVALID', "'data' is empty: send 1 to 500 items.");
  if (data.length > BATCH_MAX) throw new AppError('BODY_INVALID', `'data' has ${data.length} items; a batch holds at most ${BATCH_MAX}. Split it.`);
  return data;
}

/**
 * Prepares every item (an AppError skips that item alone), writes the prepared ones in one store
 * call, and merges both into one outcome per item, in order. `result` may turn a written item into
 * a refusal (an update or delete of a missing record).
 */
export async function runBatch<P, W, R>(
  items: readonly unknown[],
  prepare: (item: unknown, index: number) => P,
  write: (prepared: P[]) => Promise<Array<W | AppError>>,
  result: (written: W, prepared: P) => R | AppError,
): Promise<Array<ItemOutcome<R>>> {
  const outcomes: Array<ItemOutcome<R> | undefined> = new Array(items.length);
  const ready: Array<{ index: number; prepared: P }> = [];
  items.forEach((item, index) => {
    try {
      ready.push({ index, prepared: prepare(item, index) });
    } catch (err) {
      if (!isAppError(err)) throw err;
      outcomes[index] = { index, error: err };
    }
  });
  const written = ready.length === 0 ? [] : await write(ready.map((r) => r.prepared));
  ready.forEach(({ index, prepared }, i) => {
    const w = written[i]!;
    const r = isAppError(w) ? w : result(w, prepared);
    outcomes[index] = isAppError(r) ? { index, error: r } : { index, written: r };
  });
  return outcomes as Array<ItemOutcome<R>>;
}
