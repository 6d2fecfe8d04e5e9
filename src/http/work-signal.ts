// A per-request AbortSignal for the work a request starts (reads on reader threads): aborted
// when the request time limit fires or the client goes away before the reply is finished.
// Fastify's own request.signal also aborts when a POST body has been read (Node emits 'close' on
// the request then), so it cannot be passed to the store as it is.

import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborted on timeout or client disconnect; pass it to store reads. */
    work: AbortSignal;
  }
}

export function installWorkSignal(app: FastifyInstance): void {
  app.decorateRequest('work', null as unknown as AbortSignal);
  app.addHook('onRequest', async (request, reply) => {
    const ac = new AbortController();
    request.work = ac.signal;
    request.signal.addEventListener('abort', () => {
      const reason = request.signal.reason as { code?: string } | undefined;
      if (reason?.code === 'FST_ERR_HANDLER_TIMEOUT') ac.abort(reason);
    }, { once: true });
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) ac.abort();
    });
  });
}
