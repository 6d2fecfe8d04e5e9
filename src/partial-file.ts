// Where a file written whole or not at all is written first: `orchard export --out`, `org export
// --out`, a snapshot or a reset's copy of an organization's database.

import path from 'node:path';

/**
 * `.partial-<pid>-<name>` beside `file`: hidden, and this process's own, so two writers of the same
 * file do not write into one; renamed over `file` once complete, removed on a failure.
 */
export function partialFile(file: string): string {
  return path.join(path.dirname(file), `.partial-${process.pid}-${path.basename(file)}`);
}
