// Files on records (docs/compat.md), as a plugin of its own so that only these routes parse
// multipart/form-data: upload (the file in a part named `file`), list, download and delete. The
// service runs them; this file reads the multipart body, within the 20 MB request limit.

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { AppError } from '../errors.js';
import type { AttachedFile } from '../schema/attached-files.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { ok } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import { commonErrors, envelopeOf, forbiddenError, idParam, objParam, tokenQuery, tokenSecurity } from './schemas.js';
import { noteMultipartPart } from './toolkit-hooks.js';

/** The part that carries the file, as the public service's clients name it. */
export const FILE_PART = 'file';

const fileSchema = {
  type: 'object',
  description: 'A file on a record.',
  properties: {
    fileid: { type: 'string', description: 'The file\'s id (UUID).' },
    objectid: { type: 'string', description: 'The record the file is on.' },
    objecttypecode: { type: 'integer', description: 'That record\'s object number.' },
    filename: { type: 'string', description: 'The name sent, made safe: its last path segment, no control characters, at most 255 characters.' },
    contenttype: { type: 'string', description: 'The part\'s content type as sent, or application/octet-stream.' },
    size: { type: 'integer', description: 'Bytes.' },
    createdon: { type: 'string', description: 'When it was attached (UTC, YYYY-MM-DDThh:mm:ss).' },
    createdby: { type: 'string', description: 'The user who attached it.' },
  },
  required: ['fileid', 'objectid', 'objecttypecode', 'filename', 'contenttype', 'size', 'createdon', 'createdby'],
} as const;

const recordParams = { type: 'object', properties: { ot: objParam, id: idParam }, required: ['ot', 'id'] } as const;
const fileParams = { type: 'object', properties: { ot: objParam, id: idParam, fileId: { type: 'string', description: 'File id (UUID).' } }, required: ['ot', 'id', 'fileId'] } as const;
const query = { type: 'object', properties: tokenQuery } as const;
const errors = { ...commonErrors, 403: forbiddenError };

interface RecordParams { ot: string; id: string }
interface FileParams extends RecordParams { fileId: string }

const howToSend = `Send multipart/form-data with the file in a part named '${FILE_PART}' (curl -F ${FILE_PART}=@report.pdf).`;

/** A multipart failure as the catalogue's error: over the size limit (413) or not readable (400). */
function uploadError(err: unknown, limit: number): AppError {
  if (err instanceof AppError) return err;
  const e = err as { code?: unknown; message?: unknown };
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('BODY_TOO_LARGE', `The file is over the ${limit / (1024 * 1024)} MB request limit. Send a smaller file.`);
  }
  return new AppError('BODY_INVALID', `The multipart body could not be read (${typeof e?.message === 'string' ? e.message : 'malformed'}). ${howToSend}`);
}

/** The first part named `file` that is a file, read whole; the other parts are read and left. */
async function readUpload(request: FastifyRequest, limit: number): Promise<{ filename: string; contentType: string; content: Buffer }> {
  if (!request.isMultipart()) throw new AppError('BODY_INVALID', `The body is not multipart/form-data. ${howToSend}`);
  const declared = Number(request.headers['content-length']);
  if (declared > limit) throw uploadError({ code: 'FST_REQ_FILE_TOO_LARGE' }, limit);
  let upload: { filename: string; contentType: string; content: Buffer } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        noteMultipartPart(request, { name: part.fieldname, bytes: Buffer.byteLength(String(part.value)) });
        continue;
      }
      if (part.fieldname === FILE_PART && !upload) {
        upload = { filename: part.filename, contentType: part.mimetype, content: await part.toBuffer() };
        noteMultipartPart(request, { name: part.fieldname, filename: part.filename, contentType: part.mimetype, bytes: upload.content.length });
      } else {
        noteMultipartPart(request, { name: part.fieldname, filename: part.filename, contentType: part.mimetype });
        part.file.resume();
      }
    }
  } catch (err) {
    throw uploadError(err, limit);
  }
  if (!upload) throw new AppError('BODY_INVALID', `The multipart body has no part named '${FILE_PART}' holding a file. ${howToSend}`);
  return upload;
}

/** `filename="…"` with an ASCII stand-in, and `filename*` with the name itself (RFC 6266). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  // encodeURIComponent leaves ' ( ) * as they are, which RFC 8187's value may not hold: a ' ends
  // the charset'language' prefix, so a name with one would be read wrong.
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export const filesRoutes: FastifyPluginAsync<RouteFamilyOptions> = async (app, { service }) => {
  errorReplies(app, v1ErrorBody);
  const limit = app.initialConfig.bodyLimit ?? 20 * 1024 * 1024;
  // Only the upload reads a body, and only multipart: one of another type (a file sent raw) is not
  // parsed as JSON, whose error would say "not valid JSON"; readUpload names the form to send.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  // One file part of at most the request limit; other parts are few and small.
  await app.register(multipart, { limits: { fileSize: limit, files: 10, fields: 20, fieldSize: 64 * 1024, parts: 40, headerPairs: 100 } });

  app.post<{ Params: RecordParams }>('/api/v2/record/:ot/:id/files', {
    schema: {
      operationId: 'attachFile',
      summary: 'Attach a file to a record',
      description: `multipart/form-data with the file in a part named '${FILE_PART}' (other parts are ignored); at most 20 MB. Needs update on the object.`,
      tags: ['v2'],
      security: tokenSecurity,
      // For the document only: the multipart parser leaves the body to the handler (null here), so
      // the schema must accept null to let the request through.
      body: {
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object', nullable: true, required: [FILE_PART],
              properties: { [FILE_PART]: { type: 'string', format: 'binary', description: 'The file; its filename and content type are kept.' } },
            },
          },
        },
      },
      params: recordParams,
      querystring: query,
      response: {
        200: {
          type: 'object',
          description: 'Attached: the file\'s id and what was kept.',
          properties: { success: { type: 'boolean' }, _id: { type: 'string' }, file: fileSchema },
          required: ['success', '_id', 'file'],
        },
        ...errors,
      },
    },
  }, async (request) => {
    const upload = await readUpload(request, limit);
    const { file } = await service.attachFile(request.identity, request.params.ot, request.params.id, upload);
    return { success: true, _id: file.fileid, file };
  });

  app.get<{ Params: RecordParams }>('/api/v2/record/:ot/:id/files', {
    schema: {
      operationId: 'listFiles',
      summary: 'List the files on a record, oldest first',
      tags: ['v2'],
      security: tokenSecurity,
      params: recordParams,
      querystring: query,
      response: { 200: envelopeOf({ type: 'array', items: fileSchema }, 'The record\'s files.'), ...commonErrors },
    },
  }, async (request) => {
    const { files } = await service.files(request.identity, request.params.ot, request.params.id);
    return ok(files satisfies AttachedFile[]);
  });

  app.get<{ Params: FileParams }>('/api/v2/record/:ot/:id/files/:fileId', {
    schema: {
      operationId: 'downloadFile',
      summary: 'Download a file of a record',
      description: 'The content as stored, with its content type and Content-Disposition: attachment naming the file.',
      tags: ['v2'],
      security: tokenSecurity,
      params: fileParams,
      querystring: query,
      response: { 200: { description: 'The file\'s content, in the content type it was uploaded with.', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } }, ...commonErrors },
    },
  }, async (request, reply) => {
    const { file, content } = await service.fileContent(request.identity, request.params.ot, request.params.id, request.params.fileId);
    reply.type(file.contenttype).header('content-disposition', contentDisposition(file.filename)).header('x-content-type-options', 'nosniff');
    return reply.send(content);
  });

  app.delete<{ Params: FileParams }>('/api/v2/record/:ot/:id/files/:fileId', {
    schema: {
      operationId: 'removeFile',
      summary: 'Remove a file from a record',
      tags: ['v2'],
      security: tokenSecurity,
      params: fileParams,
      querystring: query,
      response: { 200: envelopeOf({ type: 'null' }, 'Removed; data is null.'), ...errors },
    },
  }, async (request) => {
    await service.deleteFile(request.identity, request.params.ot, request.params.id, request.params.fileId);
    return ok(null);
  });
};
