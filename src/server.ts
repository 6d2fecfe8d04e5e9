// Starts the HTTP server: opens the stores, creates the demo organization on an empty data
// directory, listens, and closes cleanly on SIGTERM/SIGINT.

import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openStores } from './stores.js';

export interface RunningServer {
  readonly app: FastifyInstance;
  /** The address actually bound (useful with port 0). */
  readonly url: string;
  close(): Promise<void>;
}

/** Where a ready-to-paste example line goes; stdout by default. */
export type Announce = (line: string) => void;

export async function startServer(config: Config, announce: Announce = (l) => process.stdout.write(l + '\n')): Promise<RunningServer> {
  const stores = openStores(config);
  const demo = await stores.admin.ensureDemo();
  const app = await buildApp({ config, control: stores.control, records: stores.records, clock: Date.now });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
  if (demo) {
    announce(`Created a demo organization "${demo.org.name}" (${demo.org.id}) with 200 sample accounts.`);
    announce(`Its API token is shown once; keep it: ${demo.token}`);
    announce(`Try it:\n  curl -s -H 'tokenid: ${demo.token}' '${url}/api/record/account?pagesize=2'`);
  }
  announce(`Orchard listening on ${url} (data in ${config.dataDir}); API docs at ${url}/docs`);
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= app.close().then(() => stores.close()));
  return { app, url, close };
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
