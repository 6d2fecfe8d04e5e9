// /live and /ready (docs/operations.md § Health and readiness): outside the route families, so no
// token and no rate limit. /live answers while the process serves; /ready checks each store the
// process needs and answers 503 naming what does not answer (200 `degraded` for what it can serve without).

import type { FastifyInstance } from 'fastify';
import { AppError, isAppError } from '../errors.js';
import { CountersUnreachable } from '../limits/rate-limit-store.js';

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
    timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A check that took longer than READY_CHECK_MS: its reason is this message, shown as it is. */
class CheckTimeout extends Error {}

/**
 * The reason /ready shows for a failed check, without its final period (the reasons are joined into
 * one sentence). /ready answers anyone, so it shows only what Orchard wrote for a client (its store
 * errors, a check too slow) or a system error's code (ENOENT, EACCES, ECONNREFUSED): a cause's own
 * message may hold the data directory's path or a connection's address, and goes to the log.
 */
function shownReason(err: unknown): string {
  if (err instanceof CheckTimeout || err instanceof CountersUnreachable || (isAppError(err) && (err.code === 'STORE_UNAVAILABLE' || err.code === 'STORE_BUSY'))) {
    return err.message.replace(/\.$/, '');
  }
  const code = (err as { code?: unknown } | null)?.code;
  return `failed${typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : ''}; the server log has the cause`;
}

export function installHealthRoutes(app: FastifyInstance, checks: readonly ReadinessCheck[]): void {
  app.get('/live', { schema: { hide: true } }, async () => ({ status: 'live' }));

  app.get('/ready', { schema: { hide: true } }, async (request, reply) => {
    const results: Record<string, string> = {};
    await Promise.all(checks.map(async ({ name, check }) => {
      try {
        await within(check(), READY_CHECK_MS);
        results[name] = 'ok';
      } catch (err) {
        results[name] = shownReason(err);
        request.log.warn({ check: name, err }, `readiness check ${name} failed`);
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
