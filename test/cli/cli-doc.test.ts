// Keeps the orchard command and its documents in step: every command and option `orchard --help`
// lists is named in README.md or docs/, and every `orchard <command>` the documents name exists.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { buildCli } from '../../src/cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function documents(dir = path.join(ROOT, 'docs'), out = [path.join(ROOT, 'README.md')]): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) documents(abs, out);
    else if (entry.name.endsWith('.md')) out.push(abs);
  }
  return out;
}

const text = documents().map((f) => fs.readFileSync(f, 'utf8')).join('\n');

/** Each command that runs (not a group, not commander's `help`), as its words after `orchard`, with its command object. */
function commands(cmd: Command = buildCli({}), words: string[] = []): [string, Command][] {
  return cmd.commands.filter((c) => c.name() !== 'help').flatMap((c) => {
    const path = [...words, c.name()];
    return c.commands.length > 0 ? commands(c, path) : [[path.join(' '), c] as [string, Command]];
  });
}

test('every command of orchard --help is named in the documents as orchard <command>', () => {
  const all = commands();
  assert.ok(all.length > 50, `found ${all.length} commands`);
  const missing = all.map(([name]) => name).filter((name) => !new RegExp(`orchard (--json )?${name}\\b`).test(text));
  assert.deepEqual(missing, []);
});

test('every option of every command is named in the documents', () => {
  const options = [...buildCli({}).options, ...commands().flatMap(([, c]) => c.options)].map((o) => o.long).filter((o): o is string => o !== undefined);
  assert.deepEqual([...new Set(options)].filter((o) => !text.includes(o) && o !== '--help' && o !== '--version'), []);
});

test('every orchard <command> <subcommand> the documents name exists', () => {
  const groups = new Map(buildCli({}).commands.map((c) => [c.name(), new Set(c.commands.map((s) => s.name()))]));
  const unknown = new Set<string>();
  // As a command is written: in code (after a backquote, `npx `, `$ ` or at a line's start), not in prose.
  for (const m of text.matchAll(/(?:^|`|npx |\$ )orchard (?:--json )?([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/gm)) {
    const [group, sub] = [m[1]!, m[2]];
    const subs = groups.get(group);
    if (subs === undefined) {
      // "orchard command", "orchard serve", prose such as "orchard/testing" are not commands.
      if (!['command', 'commands', 'on', 'is', 'or', 'and', 'as'].includes(group)) unknown.add(group);
    } else if (subs.size > 0 && sub !== undefined && !subs.has(sub) && !['needs', 'with', 'on', 'and', 'or', 'commands'].includes(sub)) {
      unknown.add(`${group} ${sub}`);
    }
  }
  assert.deepEqual([...unknown], []);
});
