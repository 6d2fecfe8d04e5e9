// Export and import over HTTP, for the console (docs/operations.md § Import and export):
// GET /api/record/{object}/export streams the records the token's role may read as CSV or NDJSON;
// POST /api/record/{object}/import reads a CSV or NDJSON body as it arrives and creates a record per
// valid line, answering which lines were refused. Both run under the request time limit.

import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../errors.js';
import { CONTENT_TYPES, decodeRecords, encodeRecords, TRANSFER_FORMATS, type TransferFormat } from '../service/record-formats.js';
import { exportRecords, importRecords, MAX_REPORTED_ERRORS } from '../service/record-transfer.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { cutReply } from './client-closed.js';
import { ok } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import { commonErrors, envelopeOf, forbiddenError, objParam, tokenQuery, tokenSecurity } from './schemas.js';

interface ObjParams { obj: string }
interface FormatQuery { format?: TransferFormat }

const formatQuery = {
  type: 'object',
  properties: { format: { type: 'string', enum: [...TRANSFER_FORMATS], description: 'csv (a header row of field names; the default) or ndjson (one JSON object a line).' }, ...tokenQuery },
} as const;

/** The format of an import body: `format` when given, else its content type. */
function importFormat(query: FormatQuery, contentType: string | undefined): TransferFormat {
  if (query.format) return query.format;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/csv') return 'csv';
  if (type === 'application/x-ndjson' || type === 'application/jsonl') return 'ndjson';
  throw new AppError('PARAM_INVALID', `Send the file with Content-Type text/csv or application/x-ndjson, or name its format with ?format=csv or ?format=ndjson${type ? `; got ${type}` : ''}.`);
}

/** The body stream, stopped with 413 BODY_TOO_LARGE past `limit` bytes. */
function bounded(body: Readable, limit: number): Readable {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > limit) done(new AppError('BODY_TOO_LARGE', `The file is over the ${Math.round(limit / 1048576)} MB request limit. Split the file, or use orchard import, which has no limit.`));
      else done(null, chunk);
    },
  });
  body.on('error', (err) => counter.destroy(err));
  return body.pipe(counter);
}

/** The two formats an export answers and an import takes, as the OpenAPI document shows them. */
const transferTypes = { 'text/csv': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } } as const;

export const transferRoutes: FastifyPluginAsync<RouteFamilyOptions> = async (app, { service }) => {
  errorReplies(app, v1ErrorBody);
  // Every body of these routes is a file read as it arrives, whatever its type says (importFormat decides).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.get<{ Params: ObjParams; Querystring: FormatQuery }>('/api/record/:obj/export', {
    // Hijacked below: the limits cannot answer in onSend (limits-hook.ts).
    config: { writesReply: true },
    schema: {
      operationId: 'exportRecords',
      summary: 'Export every record of an object as CSV or NDJSON (streamed)',
      description: 'The fields the role may read, every record in key order. A reply cut short (the request time limit, a store failure) ends without its last chunk, so clients see an incomplete transfer.',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam }, required: ['obj'] },
      querystring: formatQuery,
      response: {
        200: {
          description: 'The records as the format asks: text/csv (a header line, then a line a record) or application/x-ndjson (a JSON object a line); Content-Disposition: attachment.',
          content: transferTypes,
        },
        ...commonErrors,
      },
    },
  }, async (request, reply) => {
    const format = request.query.format ?? 'csv';
    // One request to its last page: a restore or reset waits for it rather than run between two pages.
    await service.whole(request.identity, async (whole) => {
      const ex = await exportRecords(whole, request.identity, request.params.obj, request.work);
      // Written by hand from here: once the first chunk is out, a failure can only cut the reply.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-disposition': `attachment; filename="${ex.obj.systemName}.${format}"` });
      try {
        await pipeline(Readable.from(encodeRecords(format, ex.columns, ex.pages)), reply.raw);
      } catch (err) {
        cutReply(request, reply, err, 'export');
      }
    });
  });

  app.post<{ Params: ObjParams; Querystring: FormatQuery; Body: Readable }>('/api/record/:obj/import', {
    schema: {
      operationId: 'importRecords',
      summary: 'Import records from a CSV or NDJSON body (streamed)',
      description: `Creates a record per line as POST /api/record would (create permission, the role's field rules, the body checks; the plan must include batches); refused lines are reported by line number (the first ${MAX_REPORTED_ERRORS}) and the others written. Content-Type text/csv or application/x-ndjson, or ?format.`,
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam }, required: ['obj'] },
      querystring: formatQuery,
      // Read as it arrives (the parser above); the document shows the two formats it takes.
      documentedBody: {
        description: 'The file: CSV with a header line of field names, or NDJSON, a JSON object of field names to values a line.',
        content: transferTypes,
      },
      response: {
        200: envelopeOf({
          type: 'object',
          properties: {
            object: { type: 'string' },
            created: { type: 'integer' },
            failed: { type: 'integer' },
            errors: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, code: { type: 'string' }, message: { type: 'string' } } } },
          },
        }, 'What was created, and each refused line.'),
        ...commonErrors,
        403: forbiddenError,
      },
    },
  }, async (request) => {
    const format = importFormat(request.query, request.headers['content-type']);
    const limit = request.routeOptions.bodyLimit;
    if (Number(request.headers['content-length'] ?? 0) > limit) {
      throw new AppError('BODY_TOO_LARGE', `The file is over the ${Math.round(limit / 1048576)} MB request limit. Split the file, or use orchard import, which has no limit.`);
    }
    const body = request.body instanceof Readable ? request.body : Readable.from([]);
    // One request to its last batch: a restore or reset waits for it rather than run between two batches.
    const result = await service.whole(request.identity, (whole) => importRecords(whole, request.identity, request.params.obj, decodeRecords(format, bounded(body, limit)), undefined, { batchPlan: true, signal: request.work }));
    return ok(result);
  });
};
