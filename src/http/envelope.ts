// The success envelope (docs/api.md).

export interface Envelope<T> {
  success: true;
  data: T;
  message: string;
}

export function ok<T>(data: T): Envelope<T> {
  return { success: true, data, message: '' };
}

/** The content type of a reply whose JSON text a handler builds itself (Fastify sends such text as it is). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The JSON text of ok({...head, Records: page ? [record] : [], Record: record}) from the record's
 * JSON text `one`, serialized once rather than twice: the GET of one record repeats it (and digests
 * it for its ETag), and the second serialization was a tenth of that request's CPU. `head` is a
 * non-empty object.
 */
export function okRecordPageText(head: object, page: boolean, one: string): string {
  return `{"success":true,"data":${JSON.stringify(head).slice(0, -1)},"Records":[${page ? one : ''}],"Record":${one}},"message":""}`;
}
