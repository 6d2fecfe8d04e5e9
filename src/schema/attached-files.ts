// Files attached to records (docs/compat.md, Files on records): what a stored file is, and how a
// client's filename and content type are made safe to keep and to send back in headers.

/** A file attached to a record, as the API shows it (field names in the records' lowercase style). */
export interface AttachedFile {
  /** The file's id: a UUID chosen by the server. */
  readonly fileid: string;
  /** The record the file is on, and that record's object type. */
  readonly objectid: string;
  readonly objecttypecode: number;
  readonly filename: string;
  readonly contenttype: string;
  /** Bytes. */
  readonly size: number;
  /** Stored datetime (UTC, `YYYY-MM-DDThh:mm:ss`) and the user who attached it. */
  readonly createdon: string;
  readonly createdby: string;
}

/** The longest filename kept, in code points. */
export const FILENAME_MAX = 255;

/**
 * The name to keep for a client's filename: its last path segment (either slash), without control
 * characters and with surrounding spaces and dots removed, at most FILENAME_MAX code points;
 * `file` when nothing is left.
 */
export function safeFilename(raw: string | undefined): string {
  const last = (raw ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = trimSpacesAndDots(last.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '').replace(/\p{Cs}/gu, ''));
  const cut = [...clean].slice(0, FILENAME_MAX).join('');
  return cut === '' ? 'file' : cut;
}

const SPACE_OR_DOT = /[\s.]/;

/**
 * `text` without the spaces and dots at either end, in one pass from each end. The pattern
 * /[\s.]+$/ tried again from each character of a run not at the end, quadratic: a 16 KB filename of
 * spaces and a letter held the event loop seconds, a megabyte (a fixtures file) hours.
 */
function trimSpacesAndDots(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && SPACE_OR_DOT.test(text[start]!)) start++;
  while (end > start && SPACE_OR_DOT.test(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** type/subtype with optional parameters, as RFC 9110 writes a media type (no quoted strings). */
const MEDIA_TYPE_RE = /^[A-Za-z0-9!#$&^_.+-]{1,127}\/[A-Za-z0-9!#$&^_.+-]{1,127}(?:\s*;\s*[A-Za-z0-9!#$&^_.+-]+=[A-Za-z0-9!#$&^_.+-]+)*$/;

/** The content type to keep: the one sent when it is a plain media type, else application/octet-stream. */
export function safeContentType(raw: string | undefined): string {
  const t = (raw ?? '').trim();
  return MEDIA_TYPE_RE.test(t) ? t.toLowerCase() : 'application/octet-stream';
}
