// /live and /ready (docs/operations.md § Health and readiness): outside the route families, so no
// token and no rate limit. /live answers while the process serves; /ready checks each store the
// process needs and answers 503 naming what does not answer (200 `degraded` for what it can serve without).

import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/** One thing /ready checks: resolves when it answers, rejects with the reason otherwise. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
  /**
   * The process serves without it, less well (Redis: the limits count in memory meanwhile): its
   * failure makes /ready `degraded`, still 200, so a load balancer does not take every process
   * out for it.
   */
  readonly optional?: boolean;
}

/** How long one check may take before it counts as not answering. */
export const READY_CHECK_MS = 2_000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

// Without its final period: the reasons are joined into one sentence.
const reasonOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replace(/\.$/, '') || 'failed';

export function installHealthRoutes(app: FastifyInstance, checks: readonly ReadinessCheck[]): void {
  app.get('/live', { schema: { hide: true } }, async () => ({ status: 'live' }));

  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const results: Record<string, string> = {};
    await Promise.all(checks.map(async ({ name, check }) => {
      try {
        await within(check(), READY_CHECK_MS);
        results[name] = 'ok';
      } catch (err) {
        results[name] = reasonOf(err);
      }
    }));
    const failing = (optional: boolean) => checks.filter((c) => (c.optional === true) === optional && results[c.name] !== 'ok').map((c) => `${c.name}: ${results[c.name]}`);
    const failed = failing(false);
    if (failed.length === 0) {
      const degraded = failing(true);
      return degraded.length === 0 ? { status: 'ready', checks: results }
        : { status: 'degraded', Message: `Serving without ${degraded.join('; ')}. The rate limits count in this process's memory until Redis answers.`, checks: results };
    }
    const err = new AppError('NOT_READY', `Not ready: ${failed.join('; ')}. Requests that need it fail until it answers.`);
    reply.code(err.status).header('x-error-code', err.code);
    return { status: 'unavailable', Message: err.message, checks: results };
  });
}
