// The one catalogue of error codes. Domain code throws AppError with a code from here;
// http/error-handler.ts is the only place that turns one into a reply.
// A code is never reused for another meaning; docs/errors.md lists them all (a test keeps both equal).
// A message said the same way wherever it arises is a template beside its code (`message`), built
// with errorOf(code, ...values); others are written where they arise, with new AppError(code, text).

/**
 * Every error the server can answer with: code → HTTP status and a one-line summary for docs; for a
 * failure that passes by itself, `retryAfter`: the seconds its reply's Retry-After asks a client to
 * wait (docs/errors.md § Retry-After).
 */
export const errorCatalogue = {
  // 400
  BODY_INVALID: { status: 400, summary: 'The request body is not valid JSON or not a JSON object.' },
  BODY_TOO_DEEP: { status: 400, summary: 'The request body nests arrays and objects more than 32 levels deep.' },
  REQUEST_MALFORMED: { status: 400, summary: 'The request is not valid HTTP/1.1 (method, request target, header fields or body framing), or has no Host header field.' },
  IF_MATCH_MALFORMED: { status: 400, summary: 'The If-Match header field is neither * nor a list of entity tags (it is empty, a quote is unclosed or inside a tag, or a * is in a list).' },
  IF_NONE_MATCH_MALFORMED: { status: 400, summary: 'The If-None-Match header field of a PUT or DELETE is neither * nor a list of entity tags (it is empty, a quote is unclosed or inside a tag, or a * is in a list).' },
  PARAM_INVALID: { status: 400, summary: 'A query-string or body parameter is missing or malformed.' },
  RECORD_ID_MALFORMED: {
    status: 400, summary: 'A record id is not an RFC 4122 UUID.',
    message: (shown: string, object: string) => `${shown} is not a valid ${object} id: record ids are RFC 4122 UUIDs such as '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f'.`,
  },
  RECORD_ID_TAKEN: {
    status: 400, summary: 'A record with the id chosen on create already exists.',
    message: (object: string, id: string, keyField: string) => `The ${object} id '${id}' is already taken by another record. Leave '${keyField}' out to let the server choose an id, or update the existing record with PUT.`,
  },
  FIELD_UNKNOWN: { status: 400, summary: 'A field name does not exist on the object.' },
  FIELD_TYPE: { status: 400, summary: 'A field value does not have the field\'s type.' },
  FIELD_REQUIRED: { status: 400, summary: 'A required field is missing or empty.' },
  FIELD_TOO_LONG: { status: 400, summary: 'A text value is longer than the field\'s maxlength.' },
  LOOKUP_TARGET_MISSING: {
    status: 400, summary: 'A lookup value names no record of the target object.',
    message: (field: string, target: string, value: string) => `'${field}' refers to ${target} '${value}', which does not exist. Send the id of an existing ${target} record.`,
  },
  NOTE_RECORD_MISSING: {
    status: 400, summary: 'A note\'s objectid and objecttypecode name no existing record (or objecttypecode names no object).',
    message: (object: string, id: string, fix: string) => `The note is on ${object} '${id}', which does not exist: ${fix}.`,
  },
  DEFINITION_INVALID: { status: 400, summary: 'A custom object, field or view definition is invalid (name, label, type, options, precision or related object; a member object 58 or a field definition does not take; one custom object past the organization\'s 100; a view\'s name or count).' },
  FIXTURE_INVALID: { status: 400, summary: 'A fixtures file or object is invalid; the message names the bad member by its path (organizations[0].users[1].role).' },
  QUERY_SYNTAX: { status: 400, summary: 'The filter expression cannot be parsed.' },
  QUERY_TOO_COMPLEX: { status: 400, summary: 'The filter expression is over a size, depth or condition bound.' },
  SORT_INVALID: { status: 400, summary: 'sort_by or sort_type has a value the server does not accept.' },
  CHANGES_CURSOR_INVALID: { status: 400, summary: 'The since parameter of GET /api/changes is not a cursor this server gave, or one it gave to another organization.' },
  WEBHOOK_INVALID: { status: 400, summary: 'A webhook definition is invalid: its event, object, URL, method, header fields or filter (a filter may name the object\'s stored fields only); or the body of a secret\'s rotation (its expiresInHours); or a webhook past the 100 an organization may have.' },
  WEBHOOK_TARGET_FORBIDDEN: { status: 400, summary: 'A webhook\'s URL is, or resolves to, an address that is not public (loopback, private, link-local, unique-local, …) and WEBHOOK_ALLOW_PRIVATE is not set.' },
  // 401
  TOKEN_MISSING: { status: 401, summary: 'No tokenid header or query parameter was sent.' },
  TOKEN_INVALID: { status: 401, summary: 'The token is unknown or revoked, or its user is disabled, or its organization was deleted while the request was under way (the message says which).' },
  ADMIN_KEY_MISSING: { status: 401, summary: 'A control API call (/_orchard/) came without Authorization: Bearer <ADMIN_KEY>.' },
  ADMIN_KEY_INVALID: { status: 401, summary: 'A control API call (/_orchard/) sent a key that is not the server\'s ADMIN_KEY.' },
  // 402
  PLAN_EXCLUDES: { status: 402, summary: 'The organization\'s plan does not include the object or action.' },
  // 403
  OBJECT_READ_ONLY: { status: 403, summary: 'The object\'s records cannot be created, updated or deleted through the API.' },
  PERMISSION_DENIED: { status: 403, summary: 'The role of the token\'s user lacks the permission (read, create, update, delete) on the object.' },
  FIELD_FORBIDDEN: { status: 403, summary: 'A field asked for, filtered, sorted or written is hidden or read-only for the role of the token\'s user.' },
  // 404
  ROUTE_NOT_FOUND: { status: 404, summary: 'No route matches the path.' },
  ORGANIZATION_NOT_FOUND: { status: 404, summary: 'No organization has the id given to an administrative command or control API call.' },
  USER_NOT_FOUND: { status: 404, summary: 'No user (of the organization, where one is named) has the id given to an administrative command or control API call.' },
  ROLE_NOT_FOUND: {
    status: 404, summary: 'The organization has no role of that name (the built-in admin is not a defined role).',
    message: (orgId: string, name: string) => `Organization '${orgId}' has no role '${name}'. List its roles with orchard role list --org ${orgId} (GET /_orchard/organizations/${orgId}/roles).`,
  },
  SNAPSHOT_NOT_FOUND: {
    status: 404, summary: 'The organization has no snapshot of that name.',
    message: (orgId: string, name: string) => `Organization '${orgId}' has no snapshot named '${name}'. List its snapshots with GET /_orchard/organizations/${orgId}/snapshots (orchard snapshot list --org ${orgId}).`,
  },
  FAULT_RULE_NOT_FOUND: { status: 404, summary: 'No fault rule of the server has the id given to a control API call.' },
  TOKEN_NOT_FOUND: { status: 404, summary: 'No token has the id given to an administrative command or control API call (ids are listed by orchard token list).' },
  OBJECT_UNKNOWN: { status: 404, summary: 'The object named in the path or body does not exist.' },
  RECORD_NOT_FOUND: {
    status: 404, summary: 'No record of the object has that id in this organization.',
    message: (object: string, id: string) => `No ${object} record has id '${id}'.`,
  },
  VIEW_NOT_FOUND: { status: 404, summary: 'No view of the object has that id in this organization.' },
  WEBHOOK_NOT_FOUND: {
    status: 404, summary: 'The organization has no webhook with that id.',
    message: (id: string) => `This organization has no webhook with id '${id}'. List its webhooks with GET /api/webhooks, orchard webhook list --org <organization id>, or GET /_orchard/organizations/{id}/webhooks.`,
  },
  DELIVERY_NOT_FOUND: {
    status: 404, summary: 'The webhook has no delivery with that id.',
    message: (hook: string, id: string) => `The webhook '${hook}' has no delivery with id '${id}' (delivered and failed ones leave its log after WEBHOOK_LOG_DAYS). List them with GET /api/webhooks/${hook}/deliveries or orchard webhook deliveries --org <organization id> --id ${hook}.`,
  },
  FILE_NOT_FOUND: {
    status: 404, summary: 'The record has no file with that id.',
    message: (object: string, id: string, fileId: string) => `The ${object} record '${id}' has no file with id '${fileId}'. List its files with GET /api/v2/record/${object}/${id}/files.`,
  },
  // 405
  METHOD_NOT_ALLOWED: { status: 405, summary: 'The path exists but not with this method; the Allow header lists the methods it has.' },
  // 410, 412 (docs/history.md)
  CHANGES_CURSOR_EXPIRED: {
    status: 410, summary: 'The change-feed cursor points into entries that are no longer kept (pruned past the retention, or the organization was restored or reset); read the records again and follow a new cursor.',
    message: (why: string) => `This cursor can no longer be followed: ${why}, so changes after it may be missing. Read the records again (GET /api/record/{object} or an export), taking a new cursor first with GET /api/changes?since=now, then follow that cursor.`,
  },
  RECORD_CHANGED: {
    status: 412, summary: 'If-Match named an ETag the record no longer has: it changed since it was read.',
    message: (object: string, id: string, etag: string, reading = false) => `The ${object} record '${id}' has changed since the version your If-Match names; it is now ${etag}. ${reading
      ? 'GET it without If-Match to read it as it is now.'
      : 'GET it again, apply your change to it as it is now, and send If-Match with its new ETag.'}`,
  },
  RECORD_MATCHES: {
    status: 412, summary: 'If-None-Match on a PUT or DELETE named the record\'s current ETag, or was * and the record exists.',
    message: (object: string, id: string, etag?: string) => (etag === undefined
      ? `If-None-Match: * asks to write only if no ${object} record has the id '${id}', and one has. Leave If-None-Match out to change the record that is there, or send If-Match with the ETag of a GET of it to change it only as that version.`
      : `If-None-Match names the ${object} record '${id}'s current version (${etag}): it is written only if it is no longer that version. Leave If-None-Match out to write it as it is now.`),
  },
  // 408, 413, 431
  REQUEST_TIMEOUT: {
    status: 408, summary: 'The request did not finish within the request time limit; its work was stopped.',
    message: () => 'The request did not finish within the time limit and was stopped. Simplify it: fewer filters, fewer fields, or a smaller page.',
  },
  BODY_TOO_LARGE: { status: 413, summary: 'The request body is over the 20 MB limit.' },
  HEADERS_TOO_LARGE: { status: 431, summary: 'The request\'s header fields are over 16 KB in all.' },
  // 429 (docs/limits.md)
  LIMIT_MINUTE: { status: 429, summary: 'The organization has made its minute limit of requests in the last 60 seconds (all its tokens together).' },
  LIMIT_DAY: { status: 429, summary: 'The organization has made its daily cap of requests this UTC day; it resets at 00:00 UTC.' },
  LIMIT_ADDRESS: { status: 429, summary: 'Too many requests without a valid token from one client address in the last 60 seconds.' },
  // 401 of /metrics (docs/operations.md § Metrics)
  METRICS_TOKEN_INVALID: { status: 401, summary: 'GET /metrics without the Authorization: Bearer header that METRICS_TOKEN asks for.' },
  // The backup and restore commands (docs/operations.md § Backups)
  DATA_DIR_EMPTY: { status: 404, summary: 'An orchard command that reads or changes what exists was pointed at a data directory that holds no Orchard data (no control.db); nothing was created there.' },
  BACKUP_SOURCE_EMPTY: { status: 400, summary: 'orchard backup: the data directory holds no Orchard data (no control.db).' },
  BACKUP_TARGET_NOT_EMPTY: { status: 409, summary: 'orchard backup: the target directory is not empty.' },
  BACKUP_INVALID: { status: 400, summary: 'orchard restore: the directory is not a complete backup made by orchard backup.' },
  BACKUP_UNSUPPORTED: { status: 400, summary: 'orchard backup and restore serve the embedded (SQLite) store; on PostgreSQL use pg_dump and pg_restore.' },
  RESTORE_TARGET_IN_USE: { status: 409, summary: 'orchard restore: a server or another orchard command has the data directory\'s databases open.' },
  RESTORE_TARGET_NOT_EMPTY: { status: 409, summary: 'orchard restore: the data directory already holds Orchard data and --force was not given.' },
  RESTORE_INCOMPLETE: { status: 409, summary: 'The data directory holds a restore that did not finish (orchard restore was stopped or failed midway); nothing opens it until orchard restore is run again to the end.' },
  // The commands that drop an organization's data (docs/operations.md § Confirming what cannot be undone)
  CONFIRMATION_REQUIRED: { status: 400, summary: 'orchard org delete, org reset or snapshot restore without --yes, and standard input is not a terminal to ask on; nothing was changed.' },
  CONFIRMATION_MISMATCH: { status: 400, summary: 'orchard org delete, org reset or snapshot restore at a terminal: the answer typed was neither the organization\'s name nor its id; nothing was changed.' },
  // 409 of the control API and the commands
  ROLE_IN_USE: { status: 409, summary: 'A role is deleted only when no user of the organization holds it; the message names those who do.' },
  DELIVERY_NOT_FAILED: {
    status: 409, summary: 'Only a failed delivery can be sent again: this one is pending (it will be attempted) or delivered.',
    message: (id: string, state: string) => `The delivery '${id}' is ${state}: only a failed delivery can be sent again${state === 'pending' ? '; this one is still attempted' : ''}.`,
  },
  WEBHOOK_DISABLED: {
    status: 409, summary: 'The webhook is disabled for failing and its deliveries are not attempted: a test event is refused (enable it first), and its pending deliveries end failed with this code in their lastError.',
    message: (id: string, since: string) => `The webhook '${id}' is disabled for failing since ${since}: its deliveries are not attempted. Enable it (POST /api/webhooks/${id}/enable, orchard webhook enable), then send the test event.`,
  },
  WEBHOOKS_NOT_DELIVERED_HERE: { status: 409, summary: 'POST /_orchard/webhooks/flush on a server started with WEBHOOK_DELIVER=false, which attempts no deliveries: flush on a server that delivers them.' },
  // 500, 503
  INTERNAL: { status: 500, summary: 'An unexpected failure on the server; the reply reveals nothing of it.' },
  CONFIG_INVALID: { status: 500, summary: 'A setting (an environment variable such as PORT or HOST, or a setting given in code) has a value Orchard does not take; the message names it and what it takes. No reply carries it: the server does not start and the orchard command does nothing.' },
  STORE_UNAVAILABLE: { status: 503, summary: 'The database (PostgreSQL) cannot be reached; the server recovers by itself when it returns.', retryAfter: 5 },
  CONSOLE_NOT_BUILT: { status: 503, summary: 'A /console path was asked of a server whose console is not built (dist/console/index.html is missing): run npm run build.' },
  NOT_READY: { status: 503, summary: 'GET /ready: a store the server needs (control plane, records, rate-limit counters) does not answer.' },
  STORE_BUSY: {
    status: 503, summary: 'Another process (such as orchard seed beside the server) held the organization\'s records for writing longer than a write waits (5 s); retry.', retryAfter: 1,
    message: (seconds: number) => `This organization's records stayed locked by another writer (such as \`orchard seed\` beside the server) for ${seconds} s. Retry in a few seconds.`,
  },
} as const satisfies Record<string, { status: number; summary: string; message?: (...values: never[]) => string; retryAfter?: number }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The seconds a reply of `code` asks the client to wait before retrying (Retry-After); undefined when retrying soon would not help. */
export function retryAfterOf(code: ErrorCode): number | undefined {
  const entry: { status: number; retryAfter?: number } = errorCatalogue[code];
  return entry.retryAfter;
}

type Catalogue = typeof errorCatalogue;
/** The codes whose message is a template of the catalogue. */
export type TemplatedCode = { [C in ErrorCode]: Catalogue[C] extends { message: (...values: never[]) => string } ? C : never }[ErrorCode];
type TemplateOf<C extends TemplatedCode> = Catalogue[C] extends { message: (...values: infer A) => string } ? A : never;

/** A failure with a stable code; `message` is shown to the client as `Message`, so it must say what was wrong and how to fix it. */
export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
  }

  get status(): number {
    return errorCatalogue[this.code].status;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** The AppError of a templated code, its message built from `values` by the catalogue's template. */
export function errorOf<C extends TemplatedCode>(code: C, ...values: TemplateOf<C>): AppError {
  const template = errorCatalogue[code].message as (...v: TemplateOf<C>) => string;
  return new AppError(code, template(...values));
}

/** The 503 of an unreachable database (also forced by a fault rule, docs/control-api.md § Faults). */
export function storeUnavailableError(cause?: unknown): AppError {
  return new AppError('STORE_UNAVAILABLE', 'The database is unreachable at the moment. Retry the request in a few seconds.', cause === undefined ? undefined : { cause });
}

/** The 408 of a request stopped at the time limit (docs/api.md), wherever the limit is noticed. */
export function timeoutError(): AppError {
  return errorOf('REQUEST_TIMEOUT');
}

/** A client's text in single quotes, as messages show names and ids, cut with `…` past 60 characters. */
export function quoteText(text: string): string {
  return `'${text.length > 60 ? `${text.slice(0, 60)}…` : text}'`;
}

/** How much of a client's value a message quotes. */
const QUOTE_CHARS = 80;
/** How deep a quoted value is shown; deeper members read `…`. */
const QUOTE_DEPTH = 4;

/**
 * A client's value as a message quotes it: JSON text for short values, cut with `…` past 80
 * characters or 4 levels. Never throws and never recurses deeper than 4 levels, whatever the value's
 * size or nesting (JSON.stringify of a value nested thousands deep overflows the stack).
 */
export function quote(value: unknown): string {
  let out = '';
  const full = () => out.length > QUOTE_CHARS;
  const emit = (v: unknown, depth: number): void => {
    if (typeof v === 'string') out += JSON.stringify(v.length > QUOTE_CHARS ? v.slice(0, QUOTE_CHARS + 1) : v);
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) out += String(v);
    else if (typeof v !== 'object') out += typeof v;
    else if (Array.isArray(v)) {
      if (depth >= QUOTE_DEPTH && v.length > 0) out += '[…]';
      else {
        out += '[';
        for (let i = 0; i < v.length && !full(); i++) {
          if (i > 0) out += ',';
          emit(v[i], depth + 1);
        }
        out += ']';
      }
    } else {
      const keys = Object.keys(v);
      if (depth >= QUOTE_DEPTH && keys.length > 0) out += '{…}';
      else {
        out += '{';
        for (let i = 0; i < keys.length && !full(); i++) {
          out += `${i > 0 ? ',' : ''}${JSON.stringify(keys[i]!.slice(0, QUOTE_CHARS + 1))}:`;
          emit((v as Record<string, unknown>)[keys[i]!], depth + 1);
        }
        out += '}';
      }
    }
  };
  emit(value, 0);
  return full() ? `${out.slice(0, QUOTE_CHARS)}…` : out;
}
