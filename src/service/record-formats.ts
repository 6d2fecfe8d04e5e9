// The file formats of record import and export (docs/operations.md § Import and export): CSV
// (a header row of field names, then one row per record) and NDJSON (one JSON object per line),
// both streamed: records are encoded a page at a time and decoded as the input arrives.

import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { AppError } from '../errors.js';
import type { RecordRow } from '../schema/types.js';
import { parseJsonNumbersInRange } from '../schema/values.js';

export const TRANSFER_FORMATS = ['csv', 'ndjson'] as const;
export type TransferFormat = (typeof TRANSFER_FORMATS)[number];

export const CONTENT_TYPES: Readonly<Record<TransferFormat, string>> = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8' };

/** One line (CSV: one row, numbered by the line it ends on) of an import: the field values, or why the line cannot be read. */
export type ImportLine = { readonly line: number; readonly body: Record<string, unknown> } | { readonly line: number; readonly error: AppError };

/**
 * The text of an export, a chunk a page: CSV with a header row of `columns` (null and absent values
 * as empty cells), or NDJSON with the keys in `columns`' order.
 */
export async function* encodeRecords(format: TransferFormat, columns: readonly string[], pages: AsyncIterable<RecordRow[]>): AsyncGenerator<string> {
  if (format === 'csv') {
    yield stringify([columns]);
    for await (const page of pages) {
      if (page.length > 0) yield stringify(page.map((r) => columns.map((c) => r[c] ?? null)));
    }
    return;
  }
  for await (const page of pages) {
    let text = '';
    for (const r of page) {
      const ordered: RecordRow = {};
      for (const c of columns) ordered[c] = r[c] ?? null;
      text += JSON.stringify(ordered) + '\n';
    }
    if (text) yield text;
  }
}

/** What an import reads: for CSV first its header's column names, then one entry per line. */
/**
 * The last item of a source that cannot be read further (a CSV's unclosed quote): the lines before
 * it are imported, and the import then fails saying where and what was written (importRecords).
 */
export interface UnreadableRest {
  /** The line the last record read ends on (0: none was), and what the parser said. */
  readonly unreadable: { readonly lastRead: number; readonly reason: string };
}

export type ImportItem = ImportLine | { readonly columns: readonly string[] } | UnreadableRest;

/** The lines of an import as they arrive. A CSV that cannot be parsed further (an unclosed quote) ends with an UnreadableRest. */
export function decodeRecords(format: TransferFormat, input: Readable): AsyncIterable<ImportItem> {
  return format === 'csv' ? decodeCsv(input) : decodeNdjson(input);
}

async function* decodeNdjson(input: Readable): AsyncGenerator<ImportLine> {
  let line = 0;
  for await (const read of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    // A byte-order mark (Windows editors write one) opens the file, not its first object; a CSV's is dropped too.
    const text = line === 1 && read.startsWith('\uFEFF') ? read.slice(1) : read;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = parseJsonNumbersInRange(text);
    } catch {
      yield { line, error: new AppError('BODY_INVALID', `Line ${line} is not valid JSON: write one JSON object per line, such as {"accountname": "Acme"}.`) };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { line, error: new AppError('BODY_INVALID', `Line ${line} must be a JSON object of field names and values, such as {"accountname": "Acme"}.`) };
      continue;
    }
    yield { line, body: value as Record<string, unknown> };
  }
}

async function* decodeCsv(input: Readable): AsyncGenerator<ImportItem> {
  // Records are taken as the parser makes them (on_record), not from its stream: a stream that
  // fails drops what it buffered, and the rows parsed before an unreadable one must be imported.
  const parsed: Array<{ record: string[]; line: number }> = [];
  let failure: unknown;
  // csv-parse counts a CRLF inside a quoted cell as two lines (one for each character); an editor,
  // and the NDJSON import, count it as one. The cells keep each such CRLF, so they are taken off.
  let quotedCrlfs = 0;
  const parser = parse({
    bom: true, relax_column_count: true, skip_empty_lines: true,
    on_record: (record: string[], context: { lines: number }) => {
      for (const cell of record) if (cell.includes('\r\n')) quotedCrlfs += cell.split('\r\n').length - 1;
      parsed.push({ record, line: context.lines - quotedCrlfs });
      return null;
    },
  });
  parser.on('error', (err) => (failure ??= err));
  let header: string[] | null = null;
  // The line the last record read ended on: what cannot be read comes after it (blank lines, maybe).
  let lastLine = 0;
  function* rows(): Generator<ImportItem> {
    for (const { record, line } of parsed.splice(0)) {
      lastLine = line;
      if (header === null) {
        header = record.map((c) => c.trim());
        yield { columns: header };
        continue;
      }
      if (record.length !== header.length) {
        yield { line, error: new AppError('BODY_INVALID', `Line ${line} has ${record.length} cells; the header has ${header.length}. Quote cells that hold commas.`) };
        continue;
      }
      const body: Record<string, unknown> = {};
      header.forEach((name, i) => (body[name] = record[i]));
      yield { line, body };
    }
  }
  for await (const chunk of input) {
    await new Promise<void>((resolve) => parser.write(chunk, () => resolve()));
    yield* rows();
    if (failure !== undefined) break;
  }
  if (failure === undefined) await new Promise<void>((resolve) => parser.end(() => resolve()));
  yield* rows();
  if (failure === undefined) return;
  const e = failure as { code?: string; lines?: number; message?: string };
  if (typeof e.code === 'string' && e.code.startsWith('CSV_')) {
    // The parser's "at line N" counts as it does (above): on the lines of the records read before.
    const reason = (e.message ?? e.code).replace(/\bat line (\d+)/g, (_, n: string) => `at line ${Number(n) - quotedCrlfs}`);
    yield { unreadable: { lastRead: lastLine, reason } };
    return;
  }
  throw failure;
}
