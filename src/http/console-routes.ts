// The console (docs/console.md): the built page and its assets under /console, served as files
// with @fastify/static. The page runs only what this origin serves and talks only to the public and
// control APIs, so its replies carry a Content-Security-Policy that forbids every other origin.
// Without a build (dist/console/index.html) every /console path answers CONSOLE_NOT_BUILT.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../errors.js';

export const CONSOLE_PATH = '/console';

/**
 * Nothing from another origin: scripts, styles, fonts, images and fetches from this server only;
 * no inline script or style attribute in markup, no plugin, no frame around it, no form sent away.
 */
export const CONSOLE_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
  "connect-src 'self'", "manifest-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

/** Vite names built assets by their content, so they never change under their name. */
const ASSETS = `${CONSOLE_PATH}/assets/`;
const FOREVER = 'public, max-age=31536000, immutable';
/** The page itself names the assets of the current build: revalidated on every load. */
const REVALIDATE = 'no-cache';

function secure(reply: FastifyReply): void {
  reply.header('content-security-policy', CONSOLE_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
}

/** The built console's folder: dist/console beside dist/src, where scripts/build.js writes it. */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));

function notBuilt(dir: string): AppError {
  return new AppError('CONSOLE_NOT_BUILT', `The console is not built: ${path.join(dir, 'index.html')} is missing. Run npm run build (npm install and npm ci run it), then start the server again.`);
}

/** Registers /console and everything under it; `dir` is the built console (DEFAULT_CONSOLE_DIR unless a test says otherwise). */
export async function installConsole(app: FastifyInstance, dir: string): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', (_request, reply, done) => {
      secure(reply);
      done();
    });
    if (!fs.existsSync(path.join(dir, 'index.html'))) {
      const refuse = async () => {
        throw notBuilt(dir);
      };
      scope.get(CONSOLE_PATH, { schema: { hide: true } }, refuse);
      scope.get(`${CONSOLE_PATH}/*`, { schema: { hide: true } }, refuse);
      return;
    }
    await scope.register(fastifyStatic, {
      root: dir,
      prefix: `${CONSOLE_PATH}/`,
      schemaHide: true,
      index: 'index.html',
      cacheControl: false,
      dotfiles: 'deny',
      setHeaders: (reply: FastifyReply) => {
        reply.header('cache-control', reply.request.url.startsWith(ASSETS) ? FOREVER : REVALIDATE);
      },
    });
    // The folder's own path, without its slash: the page (its URLs are absolute, so no redirect is needed).
    scope.get(CONSOLE_PATH, { schema: { hide: true } }, (_request, reply) => reply.header('cache-control', REVALIDATE).sendFile('index.html'));
  });
}
