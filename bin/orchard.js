#!/usr/bin/env node
// The `orchard` command: runs the compiled CLI (npm install builds it through `prepare`).
import { main } from '../dist/src/cli.js';

await main();
