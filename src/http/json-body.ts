// Request bodies: every body is JSON whatever its content type says, and an empty body (GETs and
// DELETEs from clients that always send Content-Type: application/json) is no body. A body nested
// deeper than MAX_BODY_DEPTH is refused: no route reads one that deep, and a value nested thousands
// deep would overflow the stack of any recursive code that met it later. The file upload route
// parses multipart bodies itself (files-routes.ts).

import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { quoteOutOfRangeNumbers } from '../schema/values.js';

/** Levels of arrays and objects a body may nest: a v3 query body uses 5. */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests arrays and objects more than `limit` levels deep; iterative, so any depth is safe. */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

const MULTIPART_RE = /^\s*multipart\/form-data\b/i;

export function installJsonBodies(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  const parseJson = (request: Parameters<typeof json>[0], body: string | Buffer, done: Parameters<typeof json>[2]) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') return done!(null, undefined);
    return json(request, text, (err, parsed) => {
      if (err && MULTIPART_RE.test(request.headers['content-type'] ?? '')) {
        // Only the file upload takes multipart (files-routes.ts, its own content-type parser).
        return done!(new AppError('BODY_INVALID', 'This route takes a JSON body; multipart/form-data is taken only by POST /api/v2/record/{object}/{id}/files, with the file in a part named \'file\'.'), undefined);
      }
      if (!err) {
        // 1e-400 would be 0 unseen: kept as its text, the field's check refuses it (docs/api.md § Numbers).
        const quoted = quoteOutOfRangeNumbers(text);
        if (quoted !== null) parsed = JSON.parse(quoted);
      }
      if (!err && deeperThan(parsed, MAX_BODY_DEPTH)) {
        return done!(new AppError('BODY_TOO_DEEP', `The request body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep. Send records as flat maps of field names to values.`), undefined);
      }
      return done!(err, parsed);
    });
  };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('*', { parseAs: 'string' }, parseJson);
}
