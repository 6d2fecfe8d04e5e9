// Builds the console (console/, docs/console.md): a type check with tsc, then Vite bundles it into
// `outDir` (scripts/build.js gives a folder beside dist/, moved in with the rest). Nothing is fetched:
// Vite, esbuild and Preact come from node_modules.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The console's sources in the project being built (the working directory, as for tsconfig.json). */
export const CONSOLE_ROOT = path.resolve('console');

/** Whether the project has a console to build (the build's own tests build projects without one). */
export const hasConsole = () => fs.existsSync(path.join(CONSOLE_ROOT, 'tsconfig.json'));

/** Type-checks and bundles the console into outDir (an absolute path); throws when either fails. */
export async function buildConsole(outDir) {
  const ROOT = `${CONSOLE_ROOT}${path.sep}`;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const checked = spawnSync(process.execPath, [tsc, '-p', `${ROOT}tsconfig.json`], { stdio: 'inherit' });
  if (checked.status !== 0) throw new Error('the console does not type-check');
  const { build } = await import('vite');
  await build({
    root: ROOT,
    base: '/console/',
    configFile: false,
    envFile: false,
    logLevel: 'warn',
    publicDir: false,
    esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      // Every asset a file of its own under assets/: no data: URL the CSP would have to allow.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
    },
  });
}
