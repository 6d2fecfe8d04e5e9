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

type Tags = '*' | Array<{ weak: boolean; opaque: string }>;

/**
 * The entity tags of an If-Match or If-None-Match field value: `*`, or tags (weak ones marked);
 * undefined when the value is not a list of tags (empty, an unclosed quote, a quote inside a tag,
 * a `*` in a list: RFC 9110 § 13.1.1 has `"*" / #entity-tag`, so `*` is only ever alone).
 */
function parseTags(field: string): Tags | undefined {
  if (field.trim() === '*') return '*';
  const out: Array<{ weak: boolean; opaque: string }> = [];
  // A list element: a tag, quoted or bare (some clients strip the quotes), or nothing (", ,").
  const element = /[\s,]*(?:(W\/)?("[^"]*"|[^",\s]+)[ \t]*(?:,|$))?/y;
  while (element.lastIndex < field.length) {
    const start = element.lastIndex;
    const m = element.exec(field);
    if (m === null || element.lastIndex === start || m[2] === '*') return undefined;
    if (m[2] !== undefined) out.push({ weak: m[1] !== undefined, opaque: m[2].startsWith('"') ? m[2] : `"${m[2]}"` });
  }
  return out.length > 0 ? out : undefined;
}

function tagsOf(field: string): Tags {
  return parseTags(field) ?? [];
}

/**
 * Why an If-Match or If-None-Match value cannot be read as entity tags, for a 400 before the write
 * (RFC 9110 § 5.5 lets a recipient refuse an invalid field); undefined when it can.
 */
export function malformedTags(header: 'If-Match' | 'If-None-Match', field: string): string | undefined {
  if (parseTags(field) !== undefined) return undefined;
  const shown = JSON.stringify(field.length > 80 ? `${field.slice(0, 80)}…` : field);
  return `${header} ${shown} is not an entity tag: send * alone or the ETag header of a GET of the record as it is, quotes included (${header}: "q7yJd2WZ4m1fQm3lB0xk9A"), several separated by commas.`;
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

/** If-None-Match: does `field` name the record's current tag (weak comparison, or `*`), so a read answers 304 and a write 412? */
export function ifNoneMatchMatches(field: string, current: string): boolean {
  const tags = tagsOf(field);
  return tags === '*' || tags.some((t) => t.opaque === current);
}
