// Starts the HTTP server: opens the stores, creates the demo organization on an empty data
// directory, listens, and closes cleanly on SIGTERM/SIGINT.

import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from './app.js';
import { LISTENING_TEXT, loggerOptions, type LogStream } from './http/log-options.js';
import { VERSION } from './version.js';
import type { Config } from './config.js';
import { openStores, type Stores } from './stores.js';

export interface RunningServer {
  readonly app: FastifyInstance;
  /** The address actually bound (useful with port 0). */
  readonly url: string;
  /** The stores it serves from; closed by close(). */
  readonly stores: Stores;
  /** The demo organization made on this start (empty data directory), with its one-time token and a ready curl line. */
  readonly demo: { readonly orgId: string; readonly userId: string; readonly token: string; readonly accounts: number; readonly curl: string } | null;
  close(): Promise<void>;
}

/** Receives the lines printed on start (one line per call, no newline); stdout by default. */
export type Announce = (line: string) => void;

/** The URL a local client should use for an address the server bound. */
function urlFor(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::') return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Opens the stores, listens, and creates the demo organization when the data directory holds
 * none. Announces the URL and, after creating the demo, a ready `curl` line with its token (the
 * only time that token is shown). On failure nothing is left open.
 */
export async function startServer(
  config: Config,
  announce: Announce = (l) => process.stdout.write(l + '\n'),
  options: { logger?: FastifyServerOptions['logger']; logStream?: LogStream } = {},
): Promise<RunningServer> {
  const stores = openStores(config);
  let app: FastifyInstance | undefined;
  const started = Date.now();
  try {
    const logger = options.logger ?? loggerOptions({ level: config.logLevel, format: config.logFormat, ...(options.logStream ? { stream: options.logStream } : {}) });
    app = await buildApp({ ...stores, config, clock: Date.now, logger });
    // Fastify's line per address is dropped (log-options.ts): the server logs one line of its own below.
    await app.listen({ port: config.port, host: config.host, listenTextResolver: () => LISTENING_TEXT });
    // Only once listening: a demo created before a failed listen (port taken) would never have
    // its token shown, and the next start, finding an organization, would not make another.
    const demo = await stores.admin.ensureDemo();
    const address = app.server.address();
    const url = urlFor(config.host, typeof address === 'object' && address ? address.port : config.port);
    const curl = demo ? `curl -s -H 'tokenid: ${demo.token}' '${url}/api/record/account?pagesize=2'` : '';
    if (demo) {
      // The user's id is what `orchard token create --user` takes when the token is lost.
      announce(`Created a demo organization "${demo.org.name}" (${demo.org.id}) with ${demo.accounts} sample accounts; its user is ${demo.user.id}.`);
      announce('Its API token is shown only now; keep it. Try it:');
      announce(`  ${curl}`);
    }
    announce(`Orchard listening on ${url} (data in ${config.dataDir}); API docs at ${url}/docs`);
    const running = app;
    running.log.info({ url, version: VERSION, pid: process.pid, ...(config.databaseUrl ? { store: 'postgres', schema: config.databaseSchema } : { store: 'sqlite', dataDir: config.dataDir }) }, 'Orchard started');
    let closing: Promise<void> | undefined;
    const close = () => (closing ??= running.close().then(() => stores.close()).then(() => {
      running.log.info({ uptimeSeconds: Math.round((Date.now() - started) / 1000) }, 'Orchard stopped');
    }));
    return { app: running, url, stores, close, demo: demo ? { orgId: demo.org.id, userId: demo.user.id, token: demo.token, accounts: demo.accounts, curl } : null };
  } catch (err) {
    await app?.close().catch(() => {});
    await stores.close().catch(() => {});
    throw err;
  }
}

/** Closes the server on SIGTERM or SIGINT, then exits. */
export function closeOnSignals(server: RunningServer): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      server.close().then(() => process.exit(0), (err) => {
        console.error(err);
        process.exit(1);
      });
    });
  }
}
