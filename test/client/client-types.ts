// Generates packages/client/src/openapi.ts, the client's types, from the OpenAPI document of this
// build of Orchard (/openapi.json) with openapi-typescript. test/client/client.test.ts fails
// when the committed file differs; `npm run client:types` writes it again.

import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openStores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';

export const TYPES_FILE = fileURLToPath(new URL('../../../packages/client/src/openapi.ts', import.meta.url));

const HEADER = `// Generated from Orchard's OpenAPI document (/openapi.json) by openapi-typescript: do not edit.
// Regenerate with \`npm run client:types\`; test/client/client.test.ts fails when it is stale.

`;

/** Orchard's OpenAPI document (the service's, not the control API's). */
export async function serviceDocument(): Promise<object> {
  const dir = tempDir('orchard-client-types-');
  const config = loadConfig({}, { dataDir: dir, logLevel: 'silent' });
  const stores = openStores(config);
  try {
    const app = await buildApp({ ...stores, config, clock: Date.now, logger: false });
    try {
      await app.ready();
      return app.swagger() as object;
    } finally {
      await app.close();
    }
  } finally {
    await stores.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of packages/client/src/openapi.ts for this build. */
export async function clientTypes(): Promise<string> {
  const ast = await openapiTS(JSON.stringify(await serviceDocument()), { alphabetize: true });
  return HEADER + astToString(ast);
}

if (process.argv.includes('--write')) {
  fs.writeFileSync(TYPES_FILE, await clientTypes());
  console.log(`Wrote ${TYPES_FILE}`);
}
