// A webhook definition as the API, the CLI and fixtures files give it (docs/webhooks.md), checked
// member by member with messages that say how to fix it. The filter is typed against the object
// (filter-match.ts); the URL's address is checked apart (target-guard.ts), as it needs DNS.

import { AppError, quote, quoteText } from '../errors.js';
import type { OrgSchema } from '../schema/org-schema.js';
import type { ObjectDef } from '../schema/types.js';
import { planWebhookFilter } from './filter-match.js';
import { FIELD_VALUE_FIX, fieldValueFault } from './http1-client.js';
import { isSecret } from './signing.js';
import { WEBHOOK_EVENTS, WEBHOOK_METHODS, type WebhookEvent, type WebhookMethod, type WebhookSpec } from './webhook-types.js';

/** Bounds of a definition. */
export const WEBHOOK_LIMITS = { urlLength: 2_000, headers: 20, headerValue: 1_000, perOrganization: 100 } as const;

/** Header fields the server sets on every delivery, which a webhook may not set. */
const RESERVED_HEADERS = new Set([
  'host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect',
]);

/**
 * Standard Webhooks' own header fields (webhook-id, -timestamp, -signature, and any it adds): a
 * receiver's library reads them as the sender's, so a webhook may set none (docs/webhooks.md § A webhook).
 */
const RESERVED_PREFIX = 'webhook-';

/** An RFC 9110 field name. */
const TOKEN_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The members a definition may have (`secret` only where a fixed secret may be given: fixtures). */
const MEMBERS = ['event', 'object', 'url', 'method', 'filter', 'headers'] as const;

/** A checked definition: a WebhookSpec but for its id, secret and time. */
export type WebhookDefinition = Omit<WebhookSpec, 'id' | 'secret' | 'createdAt'> & { readonly secret?: string };

function invalid(message: string): AppError {
  return new AppError('WEBHOOK_INVALID', message);
}

function eventOf(raw: unknown): WebhookEvent {
  const v = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
  if (!(WEBHOOK_EVENTS as readonly unknown[]).includes(v)) {
    throw invalid(`'event' must be one of ${WEBHOOK_EVENTS.join(', ')}; got ${quote(raw)}.`);
  }
  return v as WebhookEvent;
}

function objectOf(schema: OrgSchema, raw: unknown): ObjectDef | null {
  if (raw === undefined || raw === null || raw === '' || raw === '*') return null;
  if (typeof raw !== 'string' && typeof raw !== 'number') throw invalid(`'object' must be an object's system name or number, or '*' for every object; got ${quote(raw)}.`);
  const obj = schema.resolve(raw);
  if (obj.readOnly) throw invalid(`'${obj.systemName}' records are not written through the API (they mirror the organization's users), so a webhook on them would never fire.`);
  return obj;
}

/** An absolute http(s) URL, without credentials or fragment. */
export function webhookUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalid(`'url' is required: the absolute http(s) URL deliveries are sent to, such as 'https://hooks.example.com/orchard'; got ${quote(raw)}.`);
  const text = raw.trim();
  if (text.length > WEBHOOK_LIMITS.urlLength) throw invalid(`'url' is ${text.length} characters long; the most is ${WEBHOOK_LIMITS.urlLength}.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`'url' is not a URL: ${quoteText(text)}. Give an absolute http(s) URL such as 'https://hooks.example.com/orchard'.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`'url' must be http or https; got ${quoteText(url.protocol.slice(0, -1))}.`);
  if (url.username !== '' || url.password !== '') throw invalid(`'url' may not hold credentials (user:password@); send them in a header field such as 'Authorization: Basic …' instead.`);
  url.hash = '';
  return url;
}

function methodOf(raw: unknown): WebhookMethod {
  if (raw === undefined || raw === null || raw === '') return 'POST';
  const v = typeof raw === 'string' ? raw.trim().toUpperCase() : raw;
  if (!(WEBHOOK_METHODS as readonly unknown[]).includes(v)) throw invalid(`'method' must be one of ${WEBHOOK_METHODS.join(', ')} (each carries the event as its body); got ${quote(raw)}.`);
  return v as WebhookMethod;
}

/**
 * What a value given was, without the value: where it may be a header field's (a credential), which
 * a message would otherwise send back and leave in logs and the request journal.
 */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'string' ? 'a text' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Header fields as `{name: value}` or `["Name: value"]`. A message names what was wrong, never a value given. */
export function headersOf(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  let pairs: Array<[string, unknown]>;
  if (Array.isArray(raw)) {
    pairs = raw.map((line, i) => {
      const m = typeof line === 'string' ? /^([^:]*):(.*)$/s.exec(line) : null;
      if (!m) throw invalid(`headers[${i}] must be a header field 'Name: value'; got ${typeof line === 'string' ? 'a text without a colon' : kindOf(line)}.`);
      return [m[1]!.trim(), m[2]!.trim()];
    });
  } else if (typeof raw === 'object') {
    pairs = Object.entries(raw as Record<string, unknown>);
  } else {
    throw invalid(`'headers' must be an object of names to values ({"Authorization": "Bearer …"}) or a list of 'Name: value' lines; got ${kindOf(raw)}.`);
  }
  if (pairs.length > WEBHOOK_LIMITS.headers) throw invalid(`'headers' has ${pairs.length} fields; the most is ${WEBHOOK_LIMITS.headers}.`);
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of pairs) {
    if (!TOKEN_RE.test(name)) throw invalid(`${quoteText(name)} is not a header field name: use letters, digits and - (such as 'X-Api-Key').`);
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) throw invalid(`The header field '${name}' is set by the server on every delivery and cannot be given.`);
    if (lower.startsWith(RESERVED_PREFIX)) throw invalid(`The header field '${name}' is named as Standard Webhooks' own (webhook-…), which only the server sets; give it another name (such as 'X-${name}').`);
    if (seen.has(lower)) throw invalid(`The header field '${name}' is given twice.`);
    seen.add(lower);
    if (typeof value !== 'string') throw invalid(`The header field '${name}' must have a text value; got ${kindOf(value)}.`);
    if (/[\r\n\0]/.test(value)) throw invalid(`The header field '${name}' has a line break or NUL in its value.`);
    if (value.length > WEBHOOK_LIMITS.headerValue) throw invalid(`The value of the header field '${name}' is ${value.length} characters long; the most is ${WEBHOOK_LIMITS.headerValue}.`);
    // Taken, every attempt would fail with ERR_INVALID_CHAR until the webhook was disabled.
    const fault = fieldValueFault(name, value);
    if (fault !== null) throw invalid(`${fault[0]!.toUpperCase()}${fault.slice(1)}: ${FIELD_VALUE_FIX}.`);
    out[name] = value.trim();
  }
  return out;
}

/** A signing secret given (where one may be chosen: fixtures, the control API); undefined when absent. */
export function secretOf(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' || !isSecret(raw)) throw invalid(`'secret' must be 'whsec_' followed by the base64 of 24 to 64 random bytes; leave it out to have one made.`);
  return raw;
}

/** What a definition says once its members are checked: the object and filter still as given. */
type CheckedMembers = Omit<WebhookDefinition, 'objectType' | 'filter'> & { readonly object: unknown; readonly filter: string | null };

/**
 * Checks the members that need no organization (fixtures files check them while parsing): the
 * names of the members, the event, URL, method, header fields, the filter's type and the secret.
 */
export function checkWebhookMembers(body: unknown, allowSecret = false): CheckedMembers {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid(`A webhook is an object such as {"event": "created", "object": "account", "url": "https://hooks.example.com/orchard"}; got ${kindOf(body)}.`);
  }
  const m = body as Record<string, unknown>;
  const allowed: readonly string[] = allowSecret ? [...MEMBERS, 'secret'] : MEMBERS;
  for (const key of Object.keys(m)) {
    if (!allowed.includes(key)) throw invalid(`${quoteText(key)} is not a member of a webhook; its members are ${allowed.join(', ')}.`);
  }
  const event = eventOf(m.event);
  const url = webhookUrl(m.url);
  const method = methodOf(m.method);
  let filter: string | null = null;
  if (m.filter !== undefined && m.filter !== null && !(typeof m.filter === 'string' && m.filter.trim() === '')) {
    if (typeof m.filter !== 'string') throw invalid(`'filter' must be a filter expression such as "statecode = 1"; got ${quote(m.filter)}.`);
    if (m.object === undefined || m.object === null || m.object === '' || m.object === '*') throw invalid(`A 'filter' needs an 'object': a filter names the fields of one object.`);
    filter = m.filter.trim();
  }
  const headers = headersOf(m.headers);
  const secret = secretOf(m.secret);
  return { event, object: m.object, url: url.href, method, filter, headers, ...(secret ? { secret } : {}) };
}

/**
 * Checks a definition against the organization's objects; `allowSecret` lets it fix the signing
 * secret (fixtures files: a test suite must know it). Throws WEBHOOK_INVALID, OBJECT_UNKNOWN, and the
 * errors of a query's filter (QUERY_SYNTAX, FIELD_UNKNOWN, FIELD_TYPE, …).
 */
export function checkWebhookDefinition(schema: OrgSchema, body: unknown, allowSecret = false): WebhookDefinition {
  const { object, ...members } = checkWebhookMembers(body, allowSecret);
  const obj = objectOf(schema, object);
  if (obj && members.filter !== null) planWebhookFilter(schema, obj, members.filter);
  return { ...members, objectType: obj?.objectType ?? null };
}
