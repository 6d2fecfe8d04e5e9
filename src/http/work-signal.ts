// A per-request AbortSignal for the work a request starts (reads on reader threads): aborted
// when the request time limit fires or the client goes away before the reply is finished.
// Fastify's own request.signal also aborts when a POST body has been read (Node emits 'close' on
// the request then), so it cannot be passed to the store as it is. Made on first use, so only
// the routes that hand work to reader threads pay for it.

import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborted on timeout or client disconnect; pass it to store reads. */
    readonly work: AbortSignal;
  }
}

const kWork = Symbol('orchard.work');

interface Work {
  controller: AbortController;
  cleanup: () => void;
}

type WithWork = FastifyRequest & { [kWork]?: Work };

function startWork(request: FastifyRequest): Work {
  const controller = new AbortController();
  const onTimeout = () => {
    const reason = request.signal.reason as { code?: string } | undefined;
    if (reason?.code === 'FST_ERR_HANDLER_TIMEOUT') controller.abort(reason);
  };
  // The client can only cancel an HTTP/1.1 request by closing the connection.
  const onClose = () => controller.abort();
  request.signal.addEventListener('abort', onTimeout, { once: true });
  request.socket.once('close', onClose);
  return {
    controller,
    cleanup: () => {
      request.signal.removeEventListener('abort', onTimeout);
      request.socket.removeListener('close', onClose);
    },
  };
}

export function installWorkSignal(app: FastifyInstance): void {
  app.decorateRequest('work', {
    getter(this: FastifyRequest) {
      const r = this as WithWork;
      r[kWork] ??= startWork(this);
      return r[kWork].controller.signal;
    },
  });
  app.addHook('onResponse', async (request) => {
    (request as WithWork)[kWork]?.cleanup();
  });
}
