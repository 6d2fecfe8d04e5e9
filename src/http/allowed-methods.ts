// The methods each path has, for the 405 of a known path asked with another method (RFC 9110
// §15.5.6: the reply lists them in Allow). Fastify's router answers a method it lacks on a path like
// an unknown path, so the app keeps a second router of every route it registers, matched the same way.

import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods routes answer for this request URL, HEAD included with GET; empty for an unknown path. */
    allowedMethods(url: string): string[];
  }
}

const noop = (): void => {};

/** Keeps a router of every route the app registers from now on, and decorates the app with allowedMethods. */
export function trackAllowedMethods(app: FastifyInstance, options: { ignoreTrailingSlash: boolean; ignoreDuplicateSlashes: boolean }): void {
  const router = FindMyWay(options);
  const methods = new Set<string>();
  app.addHook('onRoute', (route) => {
    // Catch-alls (the CORS preflight's OPTIONS *, static files under /docs/) would make every path known.
    if (route.url.includes('*')) return;
    for (const method of [route.method].flat()) {
      methods.add(method);
      // The same path and method twice (HEAD beside GET) is one route here.
      if (!router.hasRoute(method as never, route.url)) router.on(method as never, route.url, noop);
    }
  });
  app.decorate('allowedMethods', (url: string): string[] => {
    const path = url.split('?', 1)[0]!;
    const allowed = [...methods].filter((m) => router.find(m as never, path) !== null);
    if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.push('HEAD');
    return allowed.sort();
  });
}
