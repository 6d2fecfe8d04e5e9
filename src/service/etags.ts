// Entity tags of records (docs/history.md § ETags): a strong tag from a digest of the record as the
// caller sees it, so it changes whenever what GET shows of the record changes (a field, a derived
// name, modifiedon), and the evaluation of If-Match (strong comparison) and If-None-Match (weak).

import { createHash } from 'node:crypto';
import type { RecordRow } from '../schema/types.js';

/** The strong ETag of a record's JSON text as a reply carries it (22 base64url characters: 132 bits of SHA-256). */
export function etagOfText(recordJson: string): string {
  return `"${createHash('sha256').update(recordJson).digest('base64url').slice(0, 22)}"`;
}

/** The strong ETag of a record as the caller sees it. */
export function etagOf(record: RecordRow): string {
  return etagOfText(JSON.stringify(record));
}

/** The entity tags of an If-Match or If-None-Match field value: `*`, or tags (weak ones marked). */
function tagsOf(field: string): '*' | Array<{ weak: boolean; opaque: string }> {
  if (field.trim() === '*') return '*';
  const out: Array<{ weak: boolean; opaque: string }> = [];
  for (const m of field.matchAll(/\s*(W\/)?("[^"]*"|[^,\s]+)\s*(?:,|$)/g)) {
    if (m[2] === undefined) continue;
    // A tag sent without its quotes is taken as the quoted one (some clients strip them).
    out.push({ weak: m[1] !== undefined, opaque: m[2].startsWith('"') ? m[2] : `"${m[2]}"` });
  }
  return out;
}

/** If-Match: does `field` name the record's current tag? Strong comparison: a weak tag never matches (RFC 9110 § 13.1.1). */
export function ifMatchHolds(field: string, current: string): boolean {
  const tags = tagsOf(field);
  return tags === '*' || tags.some((t) => !t.weak && t.opaque === current);
}

/** Whether `field` names the current tag only as a weak one (W/"…"), which If-Match never accepts. */
export function onlyWeaklyMatches(field: string, current: string): boolean {
  const tags = tagsOf(field);
  return tags !== '*' && tags.some((t) => t.weak && t.opaque === current);
}

/** If-None-Match on a read: does `field` name the record's current tag (weak comparison), so 304 answers? */
export function ifNoneMatchMatches(field: string, current: string): boolean {
  const tags = tagsOf(field);
  return tags === '*' || tags.some((t) => t.opaque === current);
}
