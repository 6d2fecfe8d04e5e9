// Checks and normalizes one field value against its field's type: the one place that knows
// what a valid Number, DateTime, picklist code or lookup id is, for writes and for filters.

import { AppError } from '../errors.js';
import type { FieldDef, FieldType } from './types.js';

/** A stored value: text, date and datetime as strings, numbers and picklist codes as numbers. */
export type FieldValue = string | number | null;

/** RFC 4122 / 9562 UUID: version digit 1–8, variant 8, 9, a or b. */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

/** The word clients of the public service see in type errors: `'x' must be a valid DateTime`. */
const TYPE_WORDS: Record<FieldType, string> = {
  text: 'Text', number: 'Number', date: 'Date', datetime: 'DateTime', picklist: 'Picklist code',
  lookup: 'Lookup id (a UUID)', email: 'Email', telephone: 'Telephone', url: 'Url', textarea: 'Text', html: 'Text',
};

function typeError(field: FieldDef, raw: unknown, hint: string): AppError {
  const shown = typeof raw === 'string' ? `'${raw.length > 60 ? raw.slice(0, 60) + '…' : raw}'` : JSON.stringify(raw);
  return new AppError('FIELD_TYPE', `'${field.name}' must be a valid ${TYPE_WORDS[field.type]}; got ${shown}. ${hint}`);
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

function validCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
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
  const offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
  const ms = Date.UTC(y, mo - 1, day, h, mi, sec) - offsetMin * 60_000;
  return formatDateTime(new Date(ms));
}

/** `YYYY-MM-DDThh:mm:ss` in UTC, the stored and returned form of datetimes (DESIGN §2). */
export function formatDateTime(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function parseNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(raw)) {
    const n = Number(raw);
    return Number.isFinite(n) ? n : undefined;
  }
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
      if (field.maxLength !== null && s.length > field.maxLength && [...s].length > field.maxLength) {
        throw new AppError('FIELD_TOO_LONG', `'${field.name}' is ${[...s].length} characters long; its maxlength is ${field.maxLength}. Shorten the value.`);
      }
      if (field.type === 'email' && !EMAIL_RE.test(s)) throw typeError(field, raw, 'Send an address such as name@example.com.');
      return s;
    }
    case 'number': {
      if (raw === '') return null;
      const n = parseNumber(raw);
      if (n === undefined) throw typeError(field, raw, 'Send a JSON number such as 42 or 3.5.');
      const p = field.precision;
      return p === undefined ? n : Math.round(n * 10 ** p) / 10 ** p;
    }
    case 'picklist': {
      if (raw === '') return null;
      const n = parseNumber(raw);
      const options = field.options ?? [];
      if (n === undefined || !Number.isInteger(n) || !options.some((o) => o.value === n)) {
        const allowed = options.map((o) => `${o.value} (${o.label})`).join(', ');
        throw typeError(field, raw, `Send one of the codes ${allowed}.`);
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
