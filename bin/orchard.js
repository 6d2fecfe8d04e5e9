#!/usr/bin/env node
// The `orchard` command: runs the compiled CLI (npm install builds it through `prepare`). Linked
// into node_modules/.bin by bin/package.json, which is where `npx orchard` finds it.
import { main } from '../dist/src/cli.js';

await main();
