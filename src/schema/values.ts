// Checks and normalizes one field value against its field's type: the one place that knows
// what a valid Number, DateTime, picklist code or lookup id is, for writes and for filters.

import { AppError, quote, quoteText } from '../errors.js';
import { DecimalSum } from './decimal.js';
import type { FieldDef, FieldType, FieldValue } from './types.js';

/** A stored value: text, date and datetime as strings, numbers and picklist codes as numbers. */

/** RFC 4122 / 9562 UUID: version digit 1–8, variant 8, 9, a or b. */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
/** One part of an e-mail address: something without a blank or an @. */
const EMAIL_PART_RE = /^[^\s@]+$/;

/** A picklist's codes with their labels, for messages: `1 (Low), 2 (Normal)`. */
export function picklistCodes(field: FieldDef): string {
  return (field.options ?? []).map((o) => `${o.value} (${o.label})`).join(', ');
}

/**
 * An e-mail address as every check of one takes it (an email field's value, a user's e-mail from the
 * CLI, the control API or a fixtures file): something@something.something, no blank and no second @.
 */
export function isEmailAddress(s: string): boolean {
  // /^[^\s@]+@[^\s@]+\.[^\s@]+$/ says the same, but tries each dot of the domain against the rest,
  // quadratic on a failing one: 40,000 characters held the event loop 9 s. Here: one @, parts of no
  // blank, and a dot in the domain with something either side of it.
  const at = s.indexOf('@');
  const domain = s.slice(at + 1);
  return at > 0 && EMAIL_PART_RE.test(s.slice(0, at)) && EMAIL_PART_RE.test(domain) && domain.lastIndexOf('.', domain.length - 2) > 0;
}

export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

/** The word clients of the public service see in type errors: `'x' must be a valid DateTime`. */
const TYPE_WORDS: Record<FieldType, string> = {
  text: 'Text', number: 'Number', date: 'Date', datetime: 'DateTime', picklist: 'Picklist code',
  lookup: 'Lookup id (a UUID)', email: 'Email', telephone: 'Telephone', url: 'Url', textarea: 'Text', html: 'Text',
};

function typeError(field: FieldDef, raw: unknown, hint: string): AppError {
  const shown = typeof raw === 'string' ? quoteText(raw) : quote(raw);
  return new AppError('FIELD_TYPE', `'${field.name}' must be a valid ${TYPE_WORDS[field.type]}; got ${shown}. ${hint}`);
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Proleptic Gregorian leap years; computed, not via Date.UTC, which maps years 0–99 to 1900–1999. */
function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Whether year `y`, month `m` (1–12), day `d` is a date of the proleptic Gregorian calendar. */
export function validCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = m === 2 && isLeapYear(y) ? 29 : DAYS_IN_MONTH[m - 1]!;
  return d <= days;
}

/** Milliseconds of a UTC wall time for any year 0–9999 (Date.UTC would read years 0–99 as 1900–1999). */
export function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number, ms = 0): number {
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo - 1, d);
  dt.setUTCHours(h, mi, s, ms);
  return dt.getTime();
}

/** Parses `YYYY-MM-DD` or an ISO 8601 datetime (no zone = UTC) to a UTC `YYYY-MM-DDThh:mm:ss`; undefined if not one. */
export function parseDateTime(s: string): string | undefined {
  const d = DATE_RE.exec(s);
  if (d) {
    const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    return validCalendarDate(y, m, day) ? `${d[1]}-${d[2]}-${d[3]}T00:00:00` : undefined;
  }
  const t = DATETIME_RE.exec(s);
  if (!t) return undefined;
  const [y, mo, day, h, mi, sec] = [1, 2, 3, 4, 5, 6].map((i) => Number(t[i] ?? 0)) as [number, number, number, number, number, number];
  if (!validCalendarDate(y, mo, day) || h > 23 || mi > 59 || sec > 59) return undefined;
  const zone = t[7];
  if (!zone || zone.toUpperCase() === 'Z') {
    return `${t[1]}-${t[2]}-${t[3]}T${t[4]}:${t[5]}:${pad(sec)}`;
  }
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const [zh, zm] = [Number(digits.slice(0, 2)), Number(digits.slice(2, 4))];
  if (zh > 23 || zm > 59) return undefined; // RFC 3339 offsets: hours 00–23, minutes 00–59
  const ms = utcMs(y, mo, day, h, mi, sec) - sign * (zh * 60 + zm) * 60_000;
  const utc = new Date(ms);
  const year = utc.getUTCFullYear();
  // Converting to UTC must not leave the four-digit years the stored form can hold.
  return year < 0 || year > 9999 ? undefined : formatDateTime(utc);
}

/** `YYYY-MM-DDThh:mm:ss` in UTC, the stored and returned form of datetimes (docs/api.md). */
export function formatDateTime(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/**
 * A number written in decimal: digits, an optional point, an optional exponent. Each run of digits
 * has one way to match (the digits after a point only after one), so a failing text is refused in
 * linear time: \d+\.?\d* split a run of digits every way, quadratic on a long one.
 */
const DECIMAL_RE = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?\s*$/i;

/**
 * The number `raw` is (a JSON number, or one written in decimal), or undefined. A decimal a double
 * cannot hold is none: past about ±1.8e308 it would be Infinity, and a nonzero one under 5e-324 in
 * magnitude would be 0 (docs/api.md § Numbers).
 */
export function parseNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw === 'string' && DECIMAL_RE.test(raw)) return decimalValue(raw);
  return undefined;
}

/** The value of a decimal's text; undefined when it overflows to ±Infinity or a nonzero one underflows to 0. */
export function decimalValue(text: string): number | undefined {
  const n = Number(text);
  if (!Number.isFinite(n)) return undefined;
  return n === 0 && /[1-9]/.test(text.replace(/e.*$/i, '')) ? undefined : n;
}

/** Why a decimal that is no number is none, as a hint for its error: it is out of a Number's range; undefined for any other text. */
export function numberRangeHint(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !DECIMAL_RE.test(raw)) return undefined;
  return 'A Number holds 0 and magnitudes from 5e-324 to about 1.8e308; this one is out of that range: send a value within it (0 for zero).';
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;

/** Where the JSON string whose text starts at `from` (just past its opening quote) ends: past its closing quote. */
function stringEnd(text: string, from: number): number {
  for (;;) {
    const q = text.indexOf('"', from);
    if (q === -1) return text.length;
    // A quote after an odd run of backslashes is escaped.
    let b = q;
    while (b > from && text.charCodeAt(b - 1) === BACKSLASH) b--;
    if ((q - b) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** Characters of a JSON number after its first: digits, the point, the exponent and its sign. */
function inNumber(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;
}

/**
 * The body with each number a double cannot hold (past ±1.8e308, or nonzero under 5e-324) written
 * as a string of its text, or null when it has none. JSON.parse would make them Infinity or 0, and
 * 1e-400 would be stored or compared as 0 unseen; as text, the field's check refuses it with what was
 * sent (docs/api.md § Numbers), and a text field keeps what was sent. For JSON already parsed
 * (a request body, an NDJSON line): on other text it may quote what is no number.
 * Every body is read once, left to right, strings skipped by indexOf: no regular expression, whose
 * backtracking took seconds on runs of digits and overflowed the stack on a string of megabytes.
 */
export function quoteOutOfRangeNumbers(text: string): string | null {
  let parts: string[] | null = null;
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i + 1);
      continue;
    }
    if (c !== MINUS && (c < 0x30 || c > 0x39)) {
      i++;
      continue;
    }
    const start = i;
    let exponent = false;
    for (i++; i < text.length && inNumber(text.charCodeAt(i)); i++) exponent ||= (text.charCodeAt(i) | 0x20) === 0x65;
    // Out of range needs an exponent, or 309 integer digits or 324 decimal places without one;
    // shorter numbers without one are in range, and are not read twice.
    if (!exponent && i - start < 300) continue;
    const token = text.slice(start, i);
    if (decimalValue(token) !== undefined) continue;
    (parts ??= []).push(text.slice(copied, start), '"', token, '"');
    copied = i;
  }
  if (parts === null) return null;
  parts.push(text.slice(copied));
  return parts.join('');
}

/** JSON.parse, with numbers a double cannot hold kept as their text (quoteOutOfRangeNumbers). */
export function parseJsonNumbersInRange(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const quoted = quoteOutOfRangeNumbers(text);
  return quoted === null ? value : JSON.parse(quoted);
}

/** Rounds to `p` decimal places, halves away from zero, as people round money (1.005 → 1.01, -0.125 → -0.13), on the decimal text (decimal.ts). */
export function roundTo(n: number, p: number): number {
  const exact = new DecimalSum();
  // Given the places: a value already within them (most are) takes the sum's scaled path, not its decimal text.
  exact.add(n, p);
  // Never null: one finite value rounded stays within the doubles.
  return exact.value(p)!;
}

/**
 * Why text cannot be stored as sent, or undefined when it can: PostgreSQL text cannot hold U+0000,
 * and a lone UTF-16 surrogate is no character at all (each store would rewrite it differently, as
 * U+FFFD or worse). Refusing both keeps every store storing exactly what was sent.
 */
export function unstorableText(s: string): string | undefined {
  if (s.includes('\u0000')) return 'it contains a NUL character (\\u0000), which text fields cannot hold. Remove it.';
  const lone = /\p{Cs}/u.exec(s);
  if (lone) return `it contains a lone UTF-16 surrogate (\\u${lone[0].charCodeAt(0).toString(16)}) at position ${lone.index}, which is not a character. Send well-formed Unicode text.`;
  return undefined;
}

/**
 * Checks `raw` against the field's type and returns the value to store.
 * null, undefined and (for non-text types) '' mean "no value"; `required` is checked by the caller,
 * which knows whether the field is being set. Throws AppError FIELD_TYPE or FIELD_TOO_LONG.
 */
export function normalizeValue(field: FieldDef, raw: unknown): FieldValue {
  if (raw === null || raw === undefined) return null;
  switch (field.type) {
    case 'text': case 'email': case 'telephone': case 'url': case 'textarea': case 'html': {
      if (typeof raw !== 'string' && typeof raw !== 'number') throw typeError(field, raw, 'Send a JSON string.');
      const s = String(raw);
      if (s === '') return null;
      const problem = unstorableText(s);
      if (problem) throw new AppError('FIELD_TYPE', `'${field.name}' must be a valid ${TYPE_WORDS[field.type]}; ${problem}`);
      if (field.maxLength !== null && s.length > field.maxLength && [...s].length > field.maxLength) {
        throw new AppError('FIELD_TOO_LONG', `'${field.name}' is ${[...s].length} characters long; its maxlength is ${field.maxLength}. Shorten the value.`);
      }
      if (field.type === 'email' && !isEmailAddress(s)) throw typeError(field, raw, 'Send an address such as name@example.com.');
      return s;
    }
    case 'number': {
      if (raw === '') return null;
      const n = parseNumber(raw);
      if (n === undefined) throw typeError(field, raw, numberRangeHint(raw) ?? 'Send a JSON number such as 42 or 3.5.');
      return field.precision === undefined ? n : roundTo(n, field.precision);
    }
    case 'picklist': {
      if (raw === '') return null;
      const n = parseNumber(raw);
      const options = field.options ?? [];
      if (n === undefined || !Number.isInteger(n) || !options.some((o) => o.value === n)) {
        throw typeError(field, raw, `Send one of the codes ${picklistCodes(field)}.`);
      }
      return n;
    }
    case 'lookup': {
      if (raw === '') return null;
      if (typeof raw !== 'string' || !isUuid(raw)) throw typeError(field, raw, 'Send the id of the related record.');
      return raw.toLowerCase();
    }
    case 'date': {
      if (raw === '') return null;
      const dt = typeof raw === 'string' ? parseDateTime(raw) : undefined;
      if (dt === undefined) throw typeError(field, raw, 'Send a date as YYYY-MM-DD.');
      return dt.slice(0, 10);
    }
    case 'datetime': {
      if (raw === '') return null;
      const dt = typeof raw === 'string' ? parseDateTime(raw) : undefined;
      if (dt === undefined) throw typeError(field, raw, 'Send an ISO 8601 datetime such as 2025-01-31T14:05:00 (no zone means UTC).');
      return dt;
    }
  }
}
