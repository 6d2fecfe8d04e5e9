// A typed client of the Records and Query API, for Orchard and the public service alike: a base URL
// and a token. Typed calls of every route (`api`, openapi-fetch over the generated `paths`),
// helpers for records, auto-paging iterators for lists and queries, retries on 429 and 503, and
// errors that carry the server's message and code.

import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi.js';
import { retryingFetch, type RetryOptions } from './retry.js';

export type { paths, components } from './openapi.js';
export { retryAfterMs, retryingFetch, type RetryOptions } from './retry.js';

/** A record: field system name → value. */
export type RecordRow = Record<string, unknown>;

type JsonBody<P extends keyof paths, M extends 'post' | 'put'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The body of POST /api/query. */
export type QueryBody = JsonBody<'/api/query', 'post'>;
/** The body of POST /api/v3/query. */
export type V3QueryBody = Record<string, unknown> & { objectType: number | string; pageSize?: number; pageNumber?: number };

export interface OrchardClientOptions {
  /** The API's base URL: an Orchard server (`http://127.0.0.1:8080`) or the public service's. */
  readonly baseUrl: string;
  /** The API token, sent in the tokenid header. */
  readonly token: string;
  /** Retries of 429 and 503 replies (default: 3 retries, waits of at most 60 s); `{ retries: 0 }` turns them off. */
  readonly retry?: RetryOptions;
  /** The fetch to use (default globalThis.fetch). */
  readonly fetch?: (input: Request) => Promise<Response>;
  /** More header fields for every request. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A reply that was not a success: the server's message and code. */
export class OrchardApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The X-Error-Code of the reply (Orchard's stable codes, e.g. LIMIT_MINUTE); null when the server sent none. */
    readonly code: string | null,
    /** The X-Request-Id of the reply, to report. */
    readonly requestId: string | null,
    /** The reply's body as parsed (`{Message}`, or `{status, error, message}` on v3). */
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'OrchardApiError';
  }

  /** Seconds the server asked to wait (Retry-After), when it did. */
  retryAfter: number | null = null;
}

function errorOf(response: Response, body: unknown): OrchardApiError {
  const b = body as { Message?: unknown; message?: unknown } | string | undefined | null;
  const text = typeof b === 'string' ? b : typeof b?.Message === 'string' ? b.Message : typeof b?.message === 'string' ? b.message : '';
  const err = new OrchardApiError(text || `${response.status} ${response.statusText}`.trim(), response.status, response.headers.get('x-error-code'), response.headers.get('x-request-id'), body);
  const after = response.headers.get('retry-after');
  if (after !== null && /^\d+$/.test(after.trim())) err.retryAfter = Number(after);
  return err;
}

/** The data of a reply, or its error thrown. */
function unwrap<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.error !== undefined || !r.response.ok) throw errorOf(r.response, r.error);
  return r.data as T;
}

export class OrchardClient {
  /** Every route, typed from Orchard's OpenAPI document: `client.api.GET('/api/record/{obj}', …)`. Replies are not unwrapped. */
  readonly api: Client<paths>;

  constructor(options: OrchardClientOptions) {
    const base = options.fetch ?? ((input: Request) => globalThis.fetch(input));
    this.api = createFetchClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { tokenid: options.token, ...options.headers },
      fetch: retryingFetch(base, options.retry),
    });
  }

  /** One record. */
  async getRecord(object: string | number, id: string): Promise<RecordRow> {
    const data = unwrap(await this.api.GET('/api/record/{obj}/{id}', { params: { path: { obj: String(object), id } } }));
    return (data.data.Record ?? data.data.Records[0]) as RecordRow;
  }

  /** Creates a record; resolves to it as stored. */
  async createRecord(object: string | number, fields: RecordRow): Promise<RecordRow> {
    const data = unwrap(await this.api.POST('/api/record/{obj}', { params: { path: { obj: String(object) } }, body: fields as never }));
    return (data.data as { Record: RecordRow }).Record;
  }

  /** Updates some fields of a record; resolves to it as stored. */
  async updateRecord(object: string | number, id: string, fields: RecordRow): Promise<RecordRow> {
    const data = unwrap(await this.api.PUT('/api/record/{obj}/{id}', { params: { path: { obj: String(object), id } }, body: fields as never }));
    return (data.data as { Record: RecordRow }).Record;
  }

  async deleteRecord(object: string | number, id: string): Promise<void> {
    unwrap(await this.api.DELETE('/api/record/{obj}/{id}', { params: { path: { obj: String(object), id } } }));
  }

  /** One page of an object's records (newest first): the record-list payload. */
  async listPage(object: string | number, page: { pageSize?: number; pageNumber?: number } = {}) {
    const query = { ...(page.pageSize !== undefined ? { pagesize: page.pageSize } : {}), ...(page.pageNumber !== undefined ? { pagenumber: page.pageNumber } : {}) };
    return unwrap(await this.api.GET('/api/record/{obj}', { params: { path: { obj: String(object) }, query } })).data;
  }

  /** Every record of an object, page after page (`pageSize` at most 50), until the last. */
  async *listRecords(object: string | number, options: { pageSize?: number } = {}): AsyncGenerator<RecordRow> {
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await this.listPage(object, { pageNumber, ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}) });
      yield* page.Records as RecordRow[];
      if (page.Records.length === 0 || pageNumber * page.Page_Size >= page.Total_Records) return;
    }
  }

  /** One page of POST /api/query: the query payload (Columns, Data, IsLastPage…). */
  async queryPage(body: QueryBody) {
    return unwrap(await this.api.POST('/api/query', { body })).data;
  }

  /** Every row of a query, page after page from `page_number` (default 1), until IsLastPage. */
  async *query(body: QueryBody): AsyncGenerator<RecordRow> {
    for (let pageNumber = Number(body.page_number ?? 1); ; pageNumber++) {
      const page = await this.queryPage({ ...body, page_number: pageNumber });
      yield* page.Data as RecordRow[];
      if (page.IsLastPage || page.Data.length === 0) return;
    }
  }

  /** Every row of a v3 query (POST /api/v3/query), page after page from `pageNumber` (default 1), until isLastPage. */
  async *v3Query(body: V3QueryBody): AsyncGenerator<RecordRow> {
    for (let pageNumber = Number(body.pageNumber ?? 1); ; pageNumber++) {
      const page = unwrap(await this.api.POST('/api/v3/query', { body: { ...body, pageNumber } })) as { data: RecordRow[]; isLastPage: boolean };
      yield* page.data;
      if (page.isLastPage || page.data.length === 0) return;
    }
  }
}

/** A client of the API at `baseUrl` with `token`. */
export function createOrchardClient(options: OrchardClientOptions): OrchardClient {
  return new OrchardClient(options);
}
