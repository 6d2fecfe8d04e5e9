// The package's version and license, read once from package.json (two levels up from dist/src/).

import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; license: string };

export const VERSION: string = pkg.version;

/** The license as the OpenAPI documents state it. */
export const LICENSE = { name: pkg.license, url: `https://spdx.org/licenses/${pkg.license}.html` } as const;
