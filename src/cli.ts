#!/usr/bin/env node
// The `orchard` command (DESIGN §6): serve, and administration of organizations, users, tokens
// and sample data on the same data directory a running server uses. With --json every command
// prints exactly one JSON object on stdout (errors too: {"error": {code, message}}).

import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, Option } from 'commander';
import { loadConfig, type Config } from './config.js';
import { isAppError } from './errors.js';
import { closeOnSignals, startServer } from './server.js';
import { openStores, type Stores } from './stores.js';

interface Out {
  json: boolean;
}

function print(out: Out, value: Record<string, unknown>, human: string): void {
  process.stdout.write(out.json ? JSON.stringify(value) + '\n' : human + '\n');
}

/** A one-line progress bar on stderr, redrawn in place; only when stderr is a terminal. */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): (done: number, total: number) => void {
  const started = Date.now();
  let lastDraw = 0;
  return (done, total) => {
    if (!stream.isTTY) return;
    const now = Date.now();
    if (done < total && now - lastDraw < 100) return;
    lastDraw = now;
    const width = 30;
    const frac = total === 0 ? 1 : done / total;
    const filled = Math.round(frac * width);
    const rate = done / Math.max((now - started) / 1000, 0.001);
    stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(frac * 100)}% ${done}/${total} ${Math.round(rate)}/s`);
    if (done >= total) stream.write('\n');
  };
}

function positiveInt(name: string) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n)) throw new Error(`${name} must be a whole number; got '${raw}'.`);
    return n;
  };
}

/** Runs an administrative action with the stores open, printing its result or its error. */
async function withStores(config: Config, out: Out, action: (stores: Stores) => Promise<void>): Promise<void> {
  const stores = openStores(config);
  try {
    await action(stores);
  } finally {
    await stores.close();
  }
}

export function buildCli(env: NodeJS.ProcessEnv = process.env): Command {
  const program = new Command('orchard')
    .description('Orchard: a self-hostable Records and Query API server.')
    .addOption(new Option('--data-dir <dir>', 'data directory (default: DATA_DIR or ./data)'))
    .option('--json', 'print one JSON object on stdout', false)
    .showHelpAfterError();

  const ctx = (): { config: Config; out: Out } => {
    const opts = program.opts<{ dataDir?: string; json: boolean }>();
    return { config: loadConfig(env, opts.dataDir ? { dataDir: opts.dataDir } : {}), out: { json: opts.json } };
  };

  program.command('serve')
    .description('start the HTTP server (PORT, HOST, DATA_DIR, BASE_URL, LOG_LEVEL from the environment)')
    .action(async () => {
      const { config } = ctx();
      closeOnSignals(await startServer(config));
    });

  const org = program.command('org').description('organizations');
  org.command('create')
    .description('create an organization, its primary (admin) user and a token for that user')
    .requiredOption('--name <name>', 'organization name')
    .requiredOption('--email <email>', 'e-mail of the primary user (receives usage notices)')
    .option('--plan <plan>', 'free, standard, professional or enterprise', 'free')
    .option('--minute-limit <n>', 'requests per rolling minute (default 100)', positiveInt('--minute-limit'))
    .action(async (o: { name: string; email: string; plan: string; minuteLimit?: number }) => {
      const { config, out } = ctx();
      await withStores(config, out, async ({ admin }) => {
        const r = await admin.createOrganization({ name: o.name, plan: o.plan, email: o.email, minuteLimit: o.minuteLimit ?? null });
        print(out, { id: r.org.id, name: r.org.name, plan: r.org.plan, userId: r.user.id, token: r.token },
          `Organization ${r.org.name} (${r.org.id}), plan ${r.org.plan}\nPrimary user ${r.user.email} (${r.user.id})\nToken (shown once): ${r.token}`);
      });
    });

  program.command('user').description('users').command('create')
    .description('create a user of an organization and a token for it')
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--email <email>', 'the user\'s e-mail')
    .option('--role <role>', 'role name', 'admin')
    .option('--name <fullname>', 'display name (default: from the e-mail)')
    .action(async (o: { org: string; email: string; role: string; name?: string }) => {
      const { config, out } = ctx();
      await withStores(config, out, async ({ admin }) => {
        const r = await admin.createUser({ orgId: o.org, email: o.email, role: o.role, ...(o.name ? { fullname: o.name } : {}) });
        print(out, { id: r.user.id, token: r.token }, `User ${r.user.email} (${r.user.id}), role ${r.user.role}\nToken (shown once): ${r.token}`);
      });
    });

  const token = program.command('token').description('API tokens');
  token.command('create')
    .description('create a new token for a user')
    .requiredOption('--user <id>', 'user id')
    .action(async (o: { user: string }) => {
      const { config, out } = ctx();
      await withStores(config, out, async ({ admin }) => {
        const t = await admin.createToken(o.user);
        print(out, { token: t }, `Token (shown once): ${t}`);
      });
    });
  token.command('revoke')
    .description('revoke a token; a running server refuses it on its next use')
    .requiredOption('--token <token>', 'the token to revoke')
    .action(async (o: { token: string }) => {
      const { config, out } = ctx();
      await withStores(config, out, async ({ admin }) => {
        const revoked = await admin.revokeToken(o.token);
        if (!revoked) {
          process.exitCode = 1;
          print(out, { error: { code: 'TOKEN_INVALID', message: 'No live token matches; it is unknown or already revoked.' } },
            'No live token matches; it is unknown or already revoked.');
          return;
        }
        print(out, { revoked: true }, 'Token revoked.');
      });
    });

  program.command('seed')
    .description('insert sample records into an organization')
    .requiredOption('--org <id>', 'organization id')
    .option('--object <name>', 'object system name or number', 'account')
    .requiredOption('--count <n>', 'how many records', positiveInt('--count'))
    .action(async (o: { org: string; object: string; count: number }) => {
      const { config, out } = ctx();
      await withStores(config, out, async ({ admin }) => {
        const started = Date.now();
        const r = await admin.seed({ orgId: o.org, object: o.object, count: o.count }, out.json ? undefined : progressBar());
        const seconds = (Date.now() - started) / 1000;
        print(out, { inserted: r.inserted, object: r.object, seconds }, `Inserted ${r.inserted} ${r.object} records in ${seconds.toFixed(1)} s.`);
      });
    });

  return program;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildCli();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    const json = program.opts<{ json: boolean }>().json;
    const code = isAppError(err) ? err.code : 'ERROR';
    const message = err instanceof Error ? err.message : String(err);
    if (json) process.stdout.write(JSON.stringify({ error: { code, message } }) + '\n');
    else process.stderr.write(`orchard: ${message}\n`);
    process.exitCode = 1;
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) await main();
