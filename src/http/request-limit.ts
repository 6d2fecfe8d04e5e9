// The request time limit (docs/api.md) and the per-request AbortSignal for the work a
// request hands off (reads on reader threads). Past the limit the reply is a 408 and the signal
// aborts, which stops the read; the signal also aborts when the client goes away.
//
// Fastify's handlerTimeout and request.signal cannot serve here: on Node 20 an HTTP request
// emits 'close' as soon as its body has been read, which clears Fastify's timer and aborts its
// signal, so a POST /api/query would never time out and could not be handed the signal.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timeoutError } from '../errors.js';
import { closeAfterReply } from './lingering-close.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborted at the time limit or on client disconnect; pass it to store reads. Made on first use. */
    readonly work: AbortSignal;
  }
}

const kState = Symbol('orchard.requestState');

interface State {
  timer: NodeJS.Timeout;
  timedOut: boolean;
  work?: { controller: AbortController; onClose: () => void };
}

type WithState = FastifyRequest & { [kState]?: State };

export function installRequestLimit(app: FastifyInstance, timeoutMs: number): void {
  app.decorateRequest('work', {
    getter(this: FastifyRequest) {
      const state = (this as WithState)[kState]!;
      if (!state.work) {
        const controller = new AbortController();
        // The client can only cancel an HTTP/1.1 request by closing the connection.
        const onClose = () => controller.abort();
        this.socket.once('close', onClose);
        state.work = { controller, onClose };
        if (state.timedOut) controller.abort(timeoutError());
        else if (this.socket.destroyed) controller.abort();
      }
      return state.work.controller.signal;
    },
  });

  app.addHook('onRequest', (request, reply, done) => {
    const state: State = {
      timedOut: false,
      timer: setTimeout(() => {
        state.timedOut = true;
        state.work?.controller.abort(timeoutError());
        // Through the error handler of the request's scope, so the 408 has its route family's shape;
        // the connection closes with it, so a client still sending its body holds no socket.
        if (!reply.sent) closeAfterReply(reply).send(timeoutError());
      }, timeoutMs),
    };
    (request as WithState)[kState] = state;
    // The limit ends with the reply, or with the connection when the client goes away first: 'close' comes either way.
    reply.raw.on('close', () => {
      clearTimeout(state.timer);
      if (state.work) request.socket.removeListener('close', state.work.onClose);
    });
    done();
  });
}
