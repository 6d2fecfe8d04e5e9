// A multipart/form-data body as browsers and form-data libraries write one, for the tests of file
// uploads (files.test.ts) and of what the journal shows of one (toolkit/journal.test.ts).

const BOUNDARY = '----orchard-test-boundary';

export interface Part { name: string; filename?: string; type?: string; content: string | Buffer }

/** The content type that goes with multipartBody. */
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart/form-data body of `parts`. */
export function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}
