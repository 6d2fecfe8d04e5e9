#!/usr/bin/env node
// The `orchard` command (README.md): serve, and administration of organizations, users, tokens,
// views and sample data on the same data directory a running server uses. With --json every command
// prints exactly one JSON object on stdout (errors too: {"error": {code, message}}).

import { once } from 'node:events';
import fs, { readFileSync, realpathSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option, type HelpContext } from 'commander';
import { loadConfig, type Config } from './config.js';
import { AppError, isAppError } from './errors.js';
import { backupData, openStores, restoreData, type Stores } from './stores.js';
import { DEFAULT_MINUTE_LIMIT, PLAN_NAMES } from './auth/plans.js';
import { VERSION } from './version.js';
import { ControlError, controlClientFrom, type ControlClient } from './control-client.js';
import { organizationSummary, SEED_MAX, userSummary } from './admin/admin-service.js';
import type { TokenInfo } from './auth/identity.js';
import type { RoleDefinition } from './auth/roles.js';
import { checkFixturesFile, fixturesFileText, fixturesText, readFixturesFile } from './fixtures/fixtures-file.js';
import { addControlCommands } from './cli-control.js';
import { confirmDestructive, type Destructive, type InStream } from './cli-confirm.js';
import { operatorIdentity } from './admin/operator.js';
import { decodeRecords, encodeRecords, TRANSFER_FORMATS, type TransferFormat } from './service/record-formats.js';
import { exportRecords, importRecords } from './service/record-transfer.js';
import { Service } from './service/service.js';
import { DELIVERY_PAGE, ROTATION_HOURS, type WebhookSummary } from './webhooks/webhook-admin.js';
import { DELIVERY_STATES, type DeliveryState } from './webhooks/webhook-types.js';
import { suggestName } from './schema/suggest.js';
import { partialFile } from './partial-file.js';


/** A stream the command writes to: the process's stdout or stderr, or a fake in tests. */
export interface OutStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Where the command writes: results on stdout; usage, failures, the progress bar and serve's log on stderr. */
export interface CliOutput {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
}

const PROCESS_OUTPUT: CliOutput = { stdout: process.stdout, stderr: process.stderr };

interface Out {
  json: boolean;
  stdout: OutStream;
}

function print(out: Out, value: object, human: string): void {
  out.stdout.write(out.json ? JSON.stringify(value) + '\n' : human + '\n');
}

/**
 * A one-line progress bar, `[####------] 40% 2000/5000 1234/s`, redrawn in place at most every
 * 100 ms and always at the end (then a newline); draws nothing unless the stream is a terminal.
 */
export function progressBar(stream: OutStream = process.stderr, clock: () => number = Date.now): (done: number, total: number) => void {
  const started = clock();
  let lastDraw = 0;
  return (done, total) => {
    if (!stream.isTTY) return;
    const now = clock();
    if (done < total && now - lastDraw < 100) return;
    lastDraw = now;
    const width = 30;
    const frac = total === 0 ? 1 : done / total;
    const filled = Math.round(frac * width);
    const rate = done / Math.max((now - started) / 1000, 0.001);
    // \x1b[K clears what a longer previous drawing left on the line.
    stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(frac * 100)}% ${done}/${total} ${Math.round(rate)}/s\x1b[K`);
    if (done >= total) stream.write('\n');
  };
}

/** A role's grants, one line per object. */
const grantLines = (grants: RoleDefinition['grants']): string[] => Object.entries(grants).map(([obj, g]) =>
  `  ${obj}: ${g.permissions.join(', ') || 'no permissions'}${g.hidden.length ? `; hidden ${g.hidden.join(', ')}` : ''}${g.readOnly.length ? `; read-only ${g.readOnly.join(', ')}` : ''}`);

const userLine = (u: ReturnType<typeof userSummary>): string =>
  `${u.id}  ${u.email}  ${u.fullname}, role ${u.role}${u.disabled ? `, disabled since ${u.disabledAt}` : ''}`;

const tokenLine = (t: TokenInfo): string =>
  `${t.id}  …${t.last4 ?? '????'}  created ${t.createdAt}, last used ${t.lastUsedAt ?? 'never'}${t.revokedAt ? `, revoked ${t.revokedAt}` : ''}`;

function wholeNumber(name: string, min = 0, max?: number) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) {
      throw new InvalidArgumentError(`${name} must be a whole number${max !== undefined ? ` from ${min} to ${max.toLocaleString('en-US')}` : min > 0 ? ` of at least ${min}` : ''}.`);
    }
    return n;
  };
}

/**
 * Writes `chunks` to a stream, waiting for it to drain when it asks to (a pipe to a slower reader),
 * until they end or the reader goes away (EPIPE: `orchard export … | head`); false in that case, and
 * nothing more is read.
 */
async function writeChunks(stream: OutStream, chunks: AsyncIterable<unknown>): Promise<boolean> {
  const emitter = 'on' in stream && typeof stream.on === 'function' ? stream as NodeJS.WritableStream : undefined;
  let failed: NodeJS.ErrnoException | undefined;
  const onError = (err: NodeJS.ErrnoException) => {
    failed = err;
  };
  emitter?.on('error', onError);
  try {
    for await (const chunk of chunks) {
      if (failed) break;
      // once() also ends on 'error', which onError has kept.
      if (stream.write(chunk as string) === false && emitter) await once(emitter, 'drain').catch(() => {});
    }
  } finally {
    emitter?.removeListener('error', onError);
  }
  if (failed && failed.code !== 'EPIPE') throw failed;
  return failed === undefined;
}

/** The size of the file an import reads (0 for a pipe); PARAM_INVALID saying why when it cannot be read. */
function inputFileSize(file: string): number {
  try {
    const stat = fs.statSync(file);
    if (stat.isDirectory()) throw new Error('it is a directory');
    fs.accessSync(file, fs.constants.R_OK);
    // A pipe or a device has no size to show progress against: 0 draws no bar.
    return stat.isFile() ? stat.size : 0;
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new AppError('PARAM_INVALID', `Cannot read --in ${file}: ${why}. Give the path of a CSV or NDJSON file, or - for standard input.`);
  }
}

/**
 * The file an export writes, checked before anything is read: PARAM_INVALID saying why it cannot be
 * written (its directory missing, or not writable; the path a directory), so a refused export leaves
 * no file behind and reads no record.
 */
function outputFile(option: string, file: string): string {
  const resolved = path.resolve(file);
  const why = (() => {
    if (fs.existsSync(resolved) && fs.statSync(resolved).isDirectory()) return 'it is a directory';
    const dir = path.dirname(resolved);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return `there is no directory ${dir}`;
    try {
      fs.accessSync(fs.existsSync(resolved) ? resolved : dir, fs.constants.W_OK);
    } catch {
      return fs.existsSync(resolved) ? 'it is not writable' : `directory ${dir} is not writable`;
    }
    return null;
  })();
  if (why) throw new AppError('PARAM_INVALID', `Cannot write ${option} ${file}: ${why}. Give a file path in an existing directory you may write to (or leave out ${option} to write to standard output).`);
  return resolved;
}

/**
 * Writes `source` to `file` whole or not at all: into a hidden file beside it, renamed over `file`
 * once complete. A failure midway (a full disk) then leaves neither a file cut short that looks
 * whole nor an earlier export overwritten, and says so.
 */
async function writeWhole(file: string, source: Readable | string): Promise<void> {
  const partial = partialFile(file);
  try {
    if (typeof source === 'string') fs.writeFileSync(partial, source);
    else await pipeline(source, fs.createWriteStream(partial));
    fs.renameSync(partial, file);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    const untouched = `Nothing was written to ${file}${fs.existsSync(file) ? ', which is as it was' : ''}: the file is written whole or not at all.`;
    if (isAppError(err)) throw new AppError(err.code, `${err.message} ${untouched}`);
    throw new Error(`${(err as Error).message}. ${untouched}`, { cause: err });
  }
}

/**
 * Runs an administrative action with the stores open, and closes them whatever happens. Only a
 * command that `creates` (org create) makes a data directory; the others refuse an empty one.
 */
async function withStores(config: Config, action: (stores: Stores) => Promise<void>, options: { creates?: boolean } = {}): Promise<void> {
  const stores = openStores(config, { keepInMemory: false, existing: options.creates !== true });
  try {
    await action(stores);
  } finally {
    await stores.close();
  }
}

/** `orchard org …` for a group, `orchard` for the program: how the command is typed. */
function commandLine(command: Command): string {
  return command.parent ? `${commandLine(command.parent)} ${command.name()}` : 'orchard';
}

/**
 * `orchard nosuch` and `orchard help nosuch` (and `orchard org nosuch`, `orchard org help nosuch`)
 * are refused alike: USAGE naming the unknown command, the nearest one, and the --help that lists
 * them. Commander's own help command printed the whole help for an unknown name, naming nothing.
 * `orchard org` alone is refused naming the group and its --help: commander printed the help on
 * stderr, which said neither what was wrong nor, with --json, which group.
 */
function refuseUnknownCommands(group: Command): void {
  const groups = group.commands.filter((c) => c.commands.length > 0);
  const line = commandLine(group);
  const refuse = (name: string): never => {
    const near = suggestName(name, group.commands.map((c) => c.name()));
    group.error(`error: unknown command '${name}'.${near ? ` Did you mean '${near}'?` : ''} List the commands with ${line} --help.`, { code: 'commander.unknownCommand' });
    // error() throws (exitOverride); this line is for the type checker.
    throw new Error('unreachable');
  };
  group.on('command:*', (operands: string[]) => refuse(operands[0]!));
  // Commander calls help({ error: true }) only for a group given no command; --help calls help() without it.
  const help = group.help.bind(group);
  group.help = ((context?: HelpContext) => context?.error
    ? group.error(`error: ${line} needs a ${group.parent ? 'subcommand. List its subcommands' : 'command. List the commands'} with ${line} --help.`, { code: 'commander.missingCommand' })
    : help(context)) as Command['help'];
  group.helpCommand(false);
  group.command('help [command]')
    .description('display help for command')
    .action((name?: string) => {
      const command = name === undefined ? group : group.commands.find((c) => c.name() === name) ?? refuse(name);
      command.help();
    });
  for (const g of groups) refuseUnknownCommands(g);
}

const EXAMPLES = `
Examples:
  $ orchard serve                                   (PORT, DATA_DIR, … from the environment)
  $ orchard org create --name Acme --plan standard --email ops@acme.example
  $ orchard org update --id <org id> --plan professional --minute-limit 300
  $ orchard role set --org <org id> --role sales --grant 'account:read,create,update;contact:read' \\
      --hide 'account:telephone1' --readonly 'account:emailaddress1'
  $ orchard user create --org <org id> --email ada@acme.example --role sales
  $ orchard token create --user <user id>
  $ orchard token revoke --token <token>
  $ orchard view create --org <org id> --object account --name 'Lisbon accounts' \\
      --fields accountname,telephone1 --query "billingcity = 'Lisbon'" --sort-by accountname
  $ orchard webhook create --org <org id> --event created --object account --url https://hooks.example.com/orchard \\
      --filter 'statecode = 1' --header 'X-Api-Key: k-1234'
  $ orchard user list --org <org id>
  $ orchard user disable --id <user id>
  $ orchard token list --user <user id>
  $ orchard token rotate --id <token id>
  $ orchard token revoke --id <token id>              (or --token <token>)
  $ orchard org delete --id <org id>                 (asks for its name or id; --yes in scripts)
  $ orchard seed --org <org id> --object account --count 100000
  $ orchard export --org <org id> --object account --format csv --out accounts.csv
  $ orchard import --org <org id> --object account --format ndjson --in accounts.ndjson
  $ orchard backup --to /backups/orchard-$(date +%F)
  $ orchard restore --from /backups/orchard-2026-03-01     (server stopped)
  $ orchard --json org create --name Acme --plan free --email ops@acme.example
  $ orchard serve --ephemeral --fixtures test/fixtures.yaml
  $ orchard snapshot create --org <org id> --name before-import      (ADMIN_KEY, ORCHARD_URL)
  $ orchard org reset --id <org id>

org reset, org export, org copy, snapshot, fixtures load, clock, fault, journal, usage, outbox and webhook flush
call the running server's control API (--url or ORCHARD_URL, and ADMIN_KEY). Every other command but
serve and restore works beside a running server on the same data directory and takes effect at once. With --json each prints one JSON object on stdout; a failure prints
{"error": {"code", "message"}} and exits with status 1.`;

export function buildCli(env: NodeJS.ProcessEnv = process.env, output: CliOutput = PROCESS_OUTPUT, input: InStream = process.stdin): Command {
  const program = new Command('orchard')
    // Before the subcommands, which copy it: help, --version and usage errors go to `output` too.
    .configureOutput({ writeOut: (text) => output.stdout.write(text), writeErr: (text) => output.stderr.write(text) })
    .description('Orchard: a self-hostable Records and Query API server, and its administration.')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(new Option('--data-dir <dir>', 'data directory (default: DATA_DIR, else ./data)'))
    .option('--json', 'print one JSON object on stdout (for scripts)')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(add --help for usage)')
    // Usage errors come back to main() as exceptions, so --json can print them as JSON too.
    .exitOverride()
    .addHelpText('after', EXAMPLES);

  /**
   * The server this environment configures, as its settings are read (a PORT the server refuses is
   * CONFIG_INVALID here too): at its HOST, or 127.0.0.1 for one listening on every address.
   */
  const localServer = (): string => {
    const { host, port } = loadConfig(env);
    const reached = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    return `http://${reached.includes(':') ? `[${reached}]` : reached}:${port}`;
  };
  const ctx = (): { config: Config; out: Out } => {
    const opts = program.opts<{ dataDir?: string; json?: boolean }>();
    return { config: loadConfig(env, opts.dataDir ? { dataDir: opts.dataDir } : {}), out: { json: opts.json === true, stdout: output.stdout } };
  };

  // The commands that drop an organization's data ask first (cli-confirm.ts): the question on stderr.
  const yesOption = () => new Option('--yes', 'do it without asking; needed where standard input is not a terminal (scripts), which are otherwise refused');
  const confirm = (action: Destructive) => confirmDestructive(action, input, output.stderr);

  program.command('serve')
    .summary('start the HTTP server')
    .description('start the HTTP server; configured by PORT (default 8080), HOST (default 127.0.0.1), DATA_DIR, BASE_URL, LOG_LEVEL. On an empty data directory it first creates a demo organization and prints a ready curl line.')
    .option('--fixtures <file>', 'load this fixtures file (JSON, or YAML for .yaml/.yml) before listening; organizations it declares that exist already are left as they are (docs/fixtures.md)')
    .option('--ephemeral', 'keep nothing: serve from a new temporary data directory (with DATABASE_URL, a new DATABASE_SCHEMA) removed when the server stops')
    .action(async (o: { fixtures?: string; ephemeral?: boolean }) => {
      const { config: given, out } = ctx();
      // Checked before anything starts: a bad file is refused with the path of its bad member.
      const fixtures = o.fixtures !== undefined ? readFixturesFile(o.fixtures) : undefined;
      // Loaded here so the administrative commands start without Fastify (about a second less).
      const { closeOnSignals, ephemeralConfig, startServer } = await import('./server.js');
      const config = o.ephemeral ? ephemeralConfig(given) : given;
      const options = { ...(fixtures ? { fixtures } : {}), ...(o.ephemeral ? { ephemeral: true } : {}) };
      if (!out.json) {
        closeOnSignals(await startServer(config, (line) => output.stdout.write(line + '\n'), options));
        return;
      }
      // --json: stdout carries one JSON object once listening; the request log goes to stderr.
      const server = await startServer(config, () => {}, { ...options, logStream: output.stderr });
      print(out, { url: server.url, dataDir: config.dataDir, docs: `${server.url}/docs`, demo: server.demo, fixtures: server.fixtures, ephemeral: o.ephemeral === true }, '');
      closeOnSignals(server);
    });

  const org = program.command('org').description('manage organizations (org create, list, update, delete, reset, export, copy)');
  org.command('create')
    .summary('create an organization, its primary user and a token')
    .description('create an organization with its primary user (role admin, receives usage notices) and a token for that user; prints the token once')
    .requiredOption('--name <name>', 'organization name (required)')
    .requiredOption('--email <email>', 'e-mail of the primary user (required)')
    .addOption(new Option('--plan <plan>', 'plan: daily request cap and included objects').choices(PLAN_NAMES).default('free'))
    .option('--minute-limit <n>', 'requests per rolling minute for this organization (default 100)', wholeNumber('--minute-limit'))
    .action(async (o: { name: string; email: string; plan: string; minuteLimit?: number }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const r = await admin.createOrganization({ name: o.name, plan: o.plan, email: o.email, minuteLimit: o.minuteLimit ?? null });
        print(out, { id: r.org.id, name: r.org.name, plan: r.org.plan, userId: r.user.id, token: r.token },
          `Organization ${r.org.name} (${r.org.id}), plan ${r.org.plan}\nPrimary user ${r.user.email} (${r.user.id})\nToken (shown once): ${r.token}`);
      }, { creates: true });
    });

  org.command('list')
    .description('list every organization: id, name, plan, minute limit, primary user')
    .action(async () => {
      const { config, out } = ctx();
      const where = config.databaseUrl ? `schema ${config.databaseSchema} of DATABASE_URL` : path.resolve(config.dataDir);
      const none = () => print(out, { items: [] }, `No organizations in ${where} (another directory: --data-dir or DATA_DIR).`);
      try {
        await withStores(config, async ({ admin }) => {
          const items = (await admin.listOrganizations()).map(organizationSummary);
          if (items.length === 0) return none();
          print(out, { items }, items.map((o) => `${o.id}  ${o.name}  plan ${o.plan}, ${o.minuteLimit}/min, primary user ${o.primaryUserId ?? 'none'}`).join('\n'));
        });
      } catch (err) {
        // Nothing there is an empty list, said without making the directory.
        if (isAppError(err) && err.code === 'DATA_DIR_EMPTY') none();
        else throw err;
      }
    });

  org.command('update')
    .summary('change an organization\'s plan or minute limit')
    .description('change the plan (daily cap, included objects and actions) and/or the requests-per-minute limit of an organization; a running server applies them from its next request')
    .requiredOption('--id <id>', 'organization id (required)')
    .addOption(new Option('--plan <plan>', 'the new plan').choices(PLAN_NAMES))
    .option('--minute-limit <n>', 'requests per rolling minute for this organization', wholeNumber('--minute-limit'))
    .action(async (o: { id: string; plan?: string; minuteLimit?: number }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const r = await admin.updateOrganization({ id: o.id, ...(o.plan !== undefined ? { plan: o.plan } : {}), ...(o.minuteLimit !== undefined ? { minuteLimit: o.minuteLimit } : {}) });
        const minuteLimit = r.minuteLimit ?? DEFAULT_MINUTE_LIMIT;
        print(out, { id: r.id, name: r.name, plan: r.plan, minuteLimit }, `Organization ${r.name} (${r.id}): plan ${r.plan}, ${minuteLimit} requests a minute`);
      });
    });

  /** The running server's control API (--url, ORCHARD_URL, ADMIN_KEY): for what must go through the process serving the organization. */
  const server = (o: { url?: string }): ControlClient => controlClientFrom(env, o.url, localServer);
  const urlOption = () => new Option('--url <url>', 'the running server (default: ORCHARD_URL, else HOST and PORT as the server reads them); the key comes from ADMIN_KEY');
  /** The running server's name for an organization; null when it has none. */
  const nameOnServer = async (client: ControlClient, orgId: string): Promise<string | null> =>
    (await client.listOrganizations()).find((x) => x.id === orgId)?.name ?? null;

  org.command('reset')
    .summary('reset an organization (running server)')
    .description('back to the fixture the organization was loaded from, or, if it was not, to a new organization\'s state: no records, no custom objects or fields; users, roles, tokens and plan stay. Calls the running server, which makes the organization\'s requests wait for it. Asks for the organization\'s name or id to be typed back, or --yes (docs/operations.md).')
    .requiredOption('--id <id>', 'organization id (required)')
    .addOption(yesOption())
    .addOption(urlOption())
    .action(async (o: { id: string; yes?: boolean; url?: string }) => {
      const { out } = ctx();
      const client = server(o);
      await confirm({
        command: 'org reset', orgId: o.id, yes: o.yes === true, nameOf: () => nameOnServer(client, o.id),
        loss: 'its records, custom objects and fields are replaced by those of the fixture it was loaded from, or deleted if it was not',
      });
      const r = await client.reset(o.id);
      print(out, r, `Organization ${r.id} ${r.fixture ? 'is back to its fixture' : 'is emptied'}.`);
    });

  org.command('export')
    .summary('write an organization out as a fixtures file (running server)')
    .description('the organization in the fixtures format (docs/fixtures.md): plan, limit, roles, users with the digests of their live tokens, custom objects and fields, every record; to --out, else on stdout. Calls the running server.')
    .requiredOption('--id <id>', 'organization id (required)')
    .option('--out <file>', 'write the fixtures to this file rather than stdout: YAML when its name ends in .yaml or .yml, else JSON')
    .addOption(urlOption())
    .action(async (o: { id: string; out?: string; url?: string }) => {
      const { out } = ctx();
      if (o.out !== undefined) outputFile('--out', o.out);
      const fixtures = await server(o).exportOrganization(o.id);
      if (o.out === undefined) {
        // The fixtures are the one JSON object, with or without --json.
        output.stdout.write(JSON.stringify(fixtures, null, out.json ? undefined : 2) + '\n');
        return;
      }
      await writeWhole(o.out, fixturesFileText(fixtures, o.out));
      print(out, { id: o.id, file: o.out }, `Organization ${o.id} written to ${o.out}.`);
    });

  org.command('copy')
    .summary('make a new organization from one, beside it (running server)')
    .description('a new organization made from this one as its export would make it: plan, limit, roles, users (same e-mails and roles, new ids), custom objects and fields, every record with its id, views; one new token for its primary user, shown once; no webhooks, so the copy sends nothing to the original\'s receivers. Calls the running server.')
    .requiredOption('--id <id>', 'the organization to copy (required)')
    .option('--name <name>', 'the copy\'s name (default: the original\'s, with " (copy)")')
    .addOption(urlOption())
    .action(async (o: { id: string; name?: string; url?: string }) => {
      const { out } = ctx();
      const { organization: c, token } = await server(o).copyOrganization(o.id, o.name);
      const primary = c.users.find((u) => u.tokens.includes(token));
      print(out, { id: c.id, name: c.name, records: c.records, users: c.users.map((u) => ({ id: u.id, email: u.email, role: u.role })), token },
        `Organization ${c.name} (${c.id}), a copy of ${o.id}: ${c.users.length} user(s), ${c.records} record(s)\nToken of ${primary?.email ?? 'its primary user'} (shown once): ${token}`);
    });

  const snapshot = program.command('snapshot').description('snapshots of an organization\'s records by name, through the running server (snapshot create, list, restore, delete)');
  snapshot.command('create')
    .description('save the organization\'s objects and records under a name (a snapshot of that name is replaced)')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--name <name>', 'snapshot name: letters, digits, ., _ or - (required)')
    .addOption(urlOption())
    .action(async (o: { org: string; name: string; url?: string }) => {
      const { out } = ctx();
      const r = await server(o).snapshot(o.org, o.name);
      print(out, r, `Snapshot ${r.name} of organization ${o.org} taken (${r.bytes} bytes).`);
    });
  snapshot.command('list')
    .description('list the organization\'s snapshots')
    .requiredOption('--org <id>', 'organization id (required)')
    .addOption(urlOption())
    .action(async (o: { org: string; url?: string }) => {
      const { out } = ctx();
      const items = await server(o).listSnapshots(o.org);
      print(out, { items }, items.map((s) => `${s.name}  ${s.createdAt}  ${s.bytes} bytes`).join('\n') || 'No snapshots.');
    });
  snapshot.command('restore')
    .description('replace the organization\'s objects and records with the snapshot\'s; its requests wait for it, and none sees a mixture. Asks for the organization\'s name or id to be typed back, or --yes (docs/operations.md).')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--name <name>', 'snapshot name (required)')
    .addOption(yesOption())
    .addOption(urlOption())
    .action(async (o: { org: string; name: string; yes?: boolean; url?: string }) => {
      const { out } = ctx();
      const client = server(o);
      await confirm({
        command: 'snapshot restore', orgId: o.org, yes: o.yes === true,
        loss: `its objects and records are replaced by those of snapshot '${o.name}'`,
        // No such snapshot: nothing is asked, and the server refuses the restore.
        nameOf: async () => ((await client.listSnapshots(o.org)).some((x) => x.name === o.name) ? nameOnServer(client, o.org) : null),
      });
      await client.restore(o.org, o.name);
      print(out, { org: o.org, restored: o.name }, `Organization ${o.org} restored from snapshot ${o.name}.`);
    });
  snapshot.command('delete')
    .description('delete a snapshot')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--name <name>', 'snapshot name (required)')
    .addOption(urlOption())
    .action(async (o: { org: string; name: string; url?: string }) => {
      const { out } = ctx();
      await server(o).deleteSnapshot(o.org, o.name);
      print(out, { org: o.org, deleted: o.name }, `Snapshot ${o.name} of organization ${o.org} deleted.`);
    });

  const fixturesCommand = program.command('fixtures').description('fixtures files (docs/fixtures.md): fixtures check, fixtures load');
  fixturesCommand.command('check')
    .description('check a fixtures file without loading it, as far as that can be done without a server (members, objects, fields, roles, every record as a create checks it); a bad one is refused with the path of the bad member')
    .requiredOption('--file <file>', 'the fixtures file: JSON, or YAML for .yaml/.yml (required)')
    .action(async (o: { file: string }) => {
      const { out } = ctx();
      const fixtures = checkFixturesFile(o.file, new Date());
      const organizations = fixtures.organizations.map((f) => ({ id: f.id, name: f.name, users: f.users.length, records: Object.values(f.records).reduce((n, l) => n + l.length, 0) }));
      print(out, { file: o.file, organizations }, organizations.map((f) => `${f.name} (${f.id}): ${f.users} users, ${f.records} records`).join('\n') || 'No organizations.');
    });
  fixturesCommand.command('load')
    .description('load a fixtures file into the running server; organizations that exist already are left as they are')
    .requiredOption('--file <file>', 'the fixtures file: JSON, or YAML for .yaml/.yml (required)')
    .addOption(urlOption())
    .action(async (o: { file: string; url?: string }) => {
      const { out } = ctx();
      readFixturesFile(o.file);
      const organizations = await server(o).loadFixtures(fixturesText(fs.readFileSync(o.file, 'utf8'), o.file));
      print(out, { organizations }, organizations.map((f) => `${f.name} (${f.id}): ${f.status === 'created' ? `loaded, ${f.records} records` : f.status === 'reloaded' ? `an earlier load never finished: removed and loaded again, ${f.records} records` : 'exists already, left as it is'}`).join('\n'));
    });

  org.command('delete')
    .summary('delete an organization and all its data')
    .description('delete an organization for good: its users, tokens, roles and every record (its database file, or its PostgreSQL schema). Its tokens are refused from the next request on. Asks for the organization\'s name or id to be typed back, or --yes (docs/operations.md).')
    .requiredOption('--id <id>', 'organization id (required)')
    .addOption(yesOption())
    .action(async (o: { id: string; yes?: boolean }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        await confirm({
          command: 'org delete', orgId: o.id, yes: o.yes === true, nameOf: async () => (await admin.requireOrganization(o.id)).name,
          loss: 'it is deleted with its users, tokens, roles and every record',
        });
        const r = await admin.deleteOrganization(o.id);
        print(out, { id: r.id, name: r.name, deleted: true }, `Organization ${r.name} (${r.id}) deleted, with its users, tokens and records.`);
      });
    });

  const role = program.command('role').description('manage roles (role list, set, delete)');
  role.command('list')
    .description('the roles of an organization with their grants: per object the permissions, hidden and read-only fields (the built-in admin has everything)')
    .requiredOption('--org <id>', 'organization id (required)')
    .action(async (o: { org: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const items = await admin.listRoles(o.org);
        const lines = items.flatMap((r) => (r.builtIn ? [`${r.name}: every permission on every object the plan includes`] : [`${r.name}:`, ...grantLines(r.grants)]));
        print(out, { items }, lines.join('\n'));
      });
    });
  role.command('set')
    .summary('define or replace a role of an organization')
    .description('define a role, or replace its whole definition: per object the permissions read, create, update, delete; per field hidden or read-only. Objects by system name or number. Users of the role see the change on their next request. The built-in role admin has everything and cannot be redefined.')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--role <name>', 'role name (required)')
    .requiredOption('--grant <grants>', "object:permission,… separated by ';', e.g. 'account:read,create;contact:read' (* = all four; '' = none)")
    .option('--hide <fields>', "object:field,… hidden from the role, e.g. 'account:telephone1,contact:emailaddress1'")
    .option('--readonly <fields>', "object:field,… the role may read but not write, e.g. 'account:emailaddress1'")
    .action(async (o: { org: string; role: string; grant: string; hide?: string; readonly?: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const r = await admin.setRole({ orgId: o.org, role: o.role, grant: o.grant, hide: o.hide, readonly: o.readonly });
        print(out, { org: r.orgId, role: r.name, grants: r.grants }, [`Role ${r.name} of organization ${r.orgId}:`, ...grantLines(r.grants)].join('\n'));
      });
    });

  role.command('delete')
    .description('delete a role of an organization. Refused while a user holds it: give them another role first with user role. The built-in role admin cannot be deleted.')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--role <name>', 'role name (required)')
    .action(async (o: { org: string; role: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const r = await admin.deleteRole(o.org, o.role);
        print(out, { org: r.orgId, role: r.name, deleted: true }, `Role ${r.name} of organization ${r.orgId} deleted.`);
      });
    });

  const user = program.command('user').description('manage users (user create, list, role, disable, enable, delete)');
  user.command('create')
    .description('create a user of an organization and a token for it; prints the token once')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--email <email>', 'the user\'s e-mail, unique within the organization (required)')
    .option('--role <role>', 'the built-in admin, or a role defined with role set', 'admin')
    .option('--name <fullname>', 'display name (default: from the e-mail, ada.lopez@… → Ada Lopez)')
    .action(async (o: { org: string; email: string; role: string; name?: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const r = await admin.createUser({ orgId: o.org, email: o.email, role: o.role, ...(o.name ? { fullname: o.name } : {}) });
        print(out, { id: r.user.id, token: r.token }, `User ${r.user.email} (${r.user.id}), role ${r.user.role}\nToken (shown once): ${r.token}`);
      });
    });
  user.command('list')
    .description('list the users of an organization: id, e-mail, name, role, disabled or not')
    .requiredOption('--org <id>', 'organization id (required)')
    .action(async (o: { org: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const items = (await admin.listUsers(o.org)).map(userSummary);
        print(out, { items }, items.map(userLine).join('\n') || 'No users.');
      });
    });
  user.command('role')
    .description('give a user another role (admin, or one defined with role set); applied from their next request')
    .requiredOption('--id <id>', 'user id (required)')
    .requiredOption('--role <role>', 'the new role (required)')
    .action(async (o: { id: string; role: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const u = userSummary(await admin.setUserRole(o.id, o.role));
        print(out, u, userLine(u));
      });
    });
  for (const [name, disabled] of [['disable', true], ['enable', false]] as const) {
    user.command(name)
      .description(disabled
        ? 'disable a user: every token of theirs is refused from the next request on, by every server on this data; enable undoes it'
        : 'enable a disabled user again: their tokens that are not revoked work again')
      .requiredOption('--id <id>', 'user id (required)')
      .action(async (o: { id: string }) => {
        const { config, out } = ctx();
        await withStores(config, async ({ admin }) => {
          const u = userSummary(await admin.setUserDisabled(o.id, disabled));
          print(out, u, userLine(u));
        });
      });
  }
  user.command('delete')
    .description('delete a user and their tokens; records they own keep them as owner (their crmuser record stays). The primary user cannot be deleted.')
    .requiredOption('--id <id>', 'user id (required)')
    .action(async (o: { id: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const u = await admin.deleteUser(o.id);
        print(out, { id: u.id, orgId: u.orgId, email: u.email, deleted: true }, `User ${u.email} (${u.id}) deleted, with their tokens.`);
      });
    });

  const token = program.command('token').description('manage API tokens (token create, list, revoke, rotate)');
  token.command('create')
    .description('create another token for a user; prints it once (only its SHA-256 digest is kept)')
    .requiredOption('--user <id>', 'user id (required)')
    .action(async (o: { user: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const t = await admin.issueToken(o.user);
        print(out, { token: t.token, id: t.info.id }, `Token (shown once): ${t.token}\nIts id: ${t.info.id}`);
      });
    });
  token.command('list')
    .description('list a user\'s tokens, live and revoked: id, last 4 characters, created, last used (to the minute), revoked; never the tokens')
    .requiredOption('--user <id>', 'user id (required)')
    .action(async (o: { user: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const items = await admin.listTokens(o.user);
        print(out, { items }, items.map(tokenLine).join('\n') || 'No tokens.');
      });
    });
  token.command('revoke')
    .description('revoke a token, by its id (token list shows them) or by its value; a running server refuses it from its next request on')
    .option('--id <id>', 'the id of the token to revoke')
    .option('--token <token>', 'the token itself')
    .action(async (o: { id?: string; token?: string }) => {
      const { config, out } = ctx();
      if ((o.id === undefined) === (o.token === undefined)) throw new AppError('PARAM_INVALID', 'Give exactly one of --id <token id> and --token <token>.');
      await withStores(config, async ({ admin }) => {
        if (o.id !== undefined) {
          // Revoked already: left as it was, and the time says since when.
          const t = await admin.revokeTokenById(o.id);
          print(out, { ...t, revoked: true }, `Token ${t.id} (…${t.last4 ?? '????'}) is revoked, since ${t.revokedAt}.`);
          return;
        }
        if (!(await admin.revokeToken(o.token!))) {
          throw new AppError('TOKEN_INVALID', 'No live token matches: it is unknown or already revoked. List a user\'s tokens, live and revoked, with orchard token list --user <user id>, and revoke one by its id with --id.');
        }
        print(out, { revoked: true }, 'Token revoked.');
      });
    });
  token.command('rotate')
    .description('replace a live token: a new token for the same user, printed once, and the old one revoked at once')
    .requiredOption('--id <id>', 'the id of the token to replace (required)')
    .action(async (o: { id: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const r = await admin.rotateToken(o.id);
        print(out, { token: r.token, created: r.created, revoked: r.revoked },
          `Token (shown once): ${r.token}\nIts id: ${r.created.id}; token ${r.revoked.id} is revoked.`);
      });
    });

  const view = program.command('view').description('manage the views of an object: named saved queries (view create, view list, view delete)');
  const viewJson = (v: { id: string; name: string; fields: string; query: string | null; sortBy: string; sortType: string; createdon: string | null }) => ({
    id: v.id, name: v.name, isDefault: v.createdon === null, fields: v.fields, query: v.query, sortBy: { fieldName: v.sortBy, type: v.sortType }, createdon: v.createdon,
  });
  const viewLine = (v: ReturnType<typeof viewJson>) => `${v.id}  ${v.name}${v.isDefault ? ' (default)' : ''}: fields ${v.fields}; ${v.query ?? 'every record'}; sorted by ${v.sortBy.fieldName} ${v.sortBy.type}`;
  view.command('create')
    .summary('define a view of an object')
    .description("define a view: a named saved query of an object (fields, filter, order) that every user of the organization who may read the object can list and run with GET and POST /api/v2/views/{object}; checked as a query is. A running server sees it on its next request.")
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--object <name>', 'object system name or number (required)')
    .requiredOption('--name <name>', "the view's name, unique among the object's views (required)")
    .option('--fields <fields>', "comma-separated field names, or '*' for every field the reader may see (default)")
    .option('--query <filter>', "filter in the language of /api/query, e.g. \"billingcity = 'Lisbon'\" (default: every record)")
    .option('--sort-by <field>', 'field to sort by (default createdon)')
    .addOption(new Option('--sort-type <type>', 'direction (default: asc with --sort-by, else desc)').choices(['asc', 'desc']))
    .action(async (o: { org: string; object: string; name: string; fields?: string; query?: string; sortBy?: string; sortType?: string }) => {
      const { config, out } = ctx();
      const sortBy = o.sortBy === undefined && o.sortType === undefined ? {} : { sortBy: { fieldName: o.sortBy ?? 'createdon', type: o.sortType ?? 'asc' } };
      await withStores(config, async ({ admin }) => {
        const r = await admin.defineView({ orgId: o.org, object: o.object, definition: { name: o.name, fields: o.fields, query: o.query, ...sortBy } });
        const v = viewJson(r.view);
        print(out, { object: r.obj.systemName, ...v }, `View of ${r.obj.systemName}: ${viewLine(v)}`);
      });
    });
  view.command('list')
    .description("list an object's views: its default view of every record, then those defined")
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--object <name>', 'object system name or number (required)')
    .action(async (o: { org: string; object: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const r = await admin.listViews({ orgId: o.org, object: o.object });
        const views = r.views.map(viewJson);
        print(out, { object: r.obj.systemName, views }, [`Views of ${r.obj.systemName}:`, ...views.map((v) => `  ${viewLine(v)}`)].join('\n'));
      });
    });
  view.command('delete')
    .description('delete a view defined for an object (the default view stays)')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--object <name>', 'object system name or number (required)')
    .requiredOption('--view <id>', "the view's id (required)")
    .action(async (o: { org: string; object: string; view: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        await admin.deleteView({ orgId: o.org, object: o.object, view: o.view });
        print(out, { deleted: true }, 'View deleted.');
      });
    });
  const webhook = program.command('webhook').description('manage the webhooks of an organization (webhook create, list, delete, enable, rotate-secret, test, deliveries, retry, flush; docs/webhooks.md)');
  const webhookLine = (h: WebhookSummary) => `${h.id}  ${h.method} ${h.url}  on ${h.event} of ${h.object ?? 'every object'}${h.filter ? ` where ${h.filter}` : ''}${h.status === 'disabled' ? `  (disabled since ${h.disabledAt})` : h.failures > 0 ? `  (failing: ${h.failures} attempts since ${h.failingSince})` : ''}`;
  webhook.command('create')
    .summary('make a webhook; prints its signing secret once')
    .description('make a webhook: each created, updated or deleted record of the object (or of every object) that matches the filter is sent to the URL, signed as Standard Webhooks defines, from the next write on; checked as POST /api/webhooks checks it. The URL must be public unless WEBHOOK_ALLOW_PRIVATE=true. Prints the signing secret, shown only now.')
    .requiredOption('--org <id>', 'organization id (required)')
    .addOption(new Option('--event <event>', 'created, updated or deleted (required)').choices(['created', 'updated', 'deleted']).makeOptionMandatory())
    .option('--object <name>', 'object system name or number (default: every object)')
    .requiredOption('--url <url>', 'the absolute http(s) URL deliveries are sent to (required)')
    .addOption(new Option('--method <method>', 'HTTP method (default POST)').choices(['POST', 'PUT', 'PATCH']))
    .option('--filter <expr>', "a filter in the language of /api/query the record must match, e.g. \"statecode = 1\" (needs --object)")
    .option('--header <field>', "a header field sent with each delivery, 'Name: value'; repeat for more", (v: string, prev: string[]) => [...prev, v], [] as string[])
    .action(async (o: { org: string; event: string; object?: string; url: string; method?: string; filter?: string; header: string[] }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const definition = { event: o.event, object: o.object, url: o.url, method: o.method, filter: o.filter, headers: o.header };
        const { webhook: h, secret } = await admin.createWebhook({ orgId: o.org, definition, allowPrivate: config.webhooks.allowPrivate });
        print(out, { id: h.id, secret }, `Webhook ${webhookLine(h)}\nSigning secret (shown once): ${secret}`);
      });
    });
  webhook.command('list')
    .description("list an organization's webhooks, oldest first (secrets are never shown)")
    .requiredOption('--org <id>', 'organization id (required)')
    .action(async (o: { org: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const webhooks = await admin.listWebhooks(o.org, new Date());
        print(out, { items: webhooks }, webhooks.map(webhookLine).join('\n') || 'No webhooks.');
      });
    });
  webhook.command('delete')
    .description('delete a webhook with its delivery log; its pending deliveries are not made')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--id <id>', "the webhook's id (required)")
    .action(async (o: { org: string; id: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        await admin.deleteWebhook(o.org, o.id);
        print(out, { deleted: true }, 'Webhook deleted.');
      });
    });
  webhook.command('enable')
    .description('make a webhook disabled for failing active again: its failures are forgotten and the next writes deliver to it')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--id <id>', "the webhook's id (required)")
    .action(async (o: { org: string; id: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const h = await admin.enableWebhook(o.org, o.id, new Date());
        print(out, h, webhookLine(h));
      });
    });
  webhook.command('rotate-secret')
    .summary('give a webhook a new signing secret; prints it once')
    .description(`give a webhook a new signing secret, as POST /api/webhooks/{id}/rotate-secret does: the secret it replaces keeps signing every delivery beside the new one for --expires-in-hours (default ${ROTATION_HOURS.default}), so the receiver can switch to the new one meanwhile; a rotation during that time ends the older secret's. Prints the new secret, shown only now.`)
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--id <id>', "the webhook's id (required)")
    .option('--expires-in-hours <n>', `hours the secret replaced keeps signing beside the new one, 0 to ${ROTATION_HOURS.max} (default ${ROTATION_HOURS.default}; 0: only the new one from now on)`, wholeNumber('--expires-in-hours'))
    .action(async (o: { org: string; id: string; expiresInHours?: number }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const body = o.expiresInHours === undefined ? {} : { expiresInHours: o.expiresInHours };
        const { webhook: h, secret } = await admin.rotateWebhookSecret({ orgId: o.org, id: o.id, body, now: new Date() });
        const until = h.previousSecretExpiresAt === null ? 'The secret it replaced no longer signs.' : `The secret it replaced also signs until ${h.previousSecretExpiresAt}.`;
        print(out, { id: h.id, secret, previousSecretExpiresAt: h.previousSecretExpiresAt }, `Webhook ${webhookLine(h)}\nNew signing secret (shown once): ${secret}\n${until}`);
      });
    });
  webhook.command('retry')
    .description('send a failed delivery again: it becomes pending, due now, its attempts counted from 0 (a server attempts it at its next sweep)')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--id <id>', "the webhook's id (required)")
    .requiredOption('--delivery <id>', "the delivery's id, as webhook deliveries --json shows it (required)")
    .action(async (o: { org: string; id: string; delivery: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const d = await admin.retryDelivery(o.org, o.id, o.delivery, new Date());
        print(out, d, `Delivery ${d.id} is pending again.`);
      });
    });
  webhook.command('test')
    .description('send a webhook a test event (type webhook.test, of no record): one delivery, signed, retried and logged as any other; a server attempts it at its next sweep')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--id <id>', "the webhook's id (required)")
    .action(async (o: { org: string; id: string }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const d = await admin.testWebhook(o.org, o.id, new Date());
        print(out, d, `Test event ${d.id} is pending.`);
      });
    });
  webhook.command('deliveries')
    .description("a webhook's delivery log, newest first: state, attempts, last status and error, duration")
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--id <id>', "the webhook's id (required)")
    .option('--limit <n>', `at most this many, from 1 (default ${DELIVERY_PAGE.default}; more than ${DELIVERY_PAGE.max} is served as ${DELIVERY_PAGE.max}, as the API's pagesize is)`, wholeNumber('--limit', 1))
    .addOption(new Option('--state <state>', 'only the deliveries in this state (default: all)').choices(DELIVERY_STATES))
    .action(async (o: { org: string; id: string; limit?: number; state?: DeliveryState }) => {
      const { config, out } = ctx();
      await withStores(config, async ({ admin }) => {
        const limit = Math.min(o.limit ?? DELIVERY_PAGE.default, DELIVERY_PAGE.max);
        const deliveries = await admin.webhookDeliveries(o.org, o.id, { limit, offset: 0, ...(o.state ? { state: o.state } : {}) });
        print(out, { items: deliveries }, deliveries.map((d) => `${d.createdAt}  ${d.recordId === null ? 'test event' : `${d.event} ${d.recordId}`}  ${d.state}, ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${d.lastStatus !== null ? `, last ${d.lastStatus}` : ''}${d.lastError ? `: ${d.lastError}` : ''}`).join('\n') || 'No deliveries.');
      });
    });
  // What a running server holds in memory: through its control API.
  addControlCommands(program, env, () => {
    const { out } = ctx();
    return (value, human) => print(out, value, human);
  }, localServer);

  program.command('seed')
    .summary('insert sample records into an organization')
    .description('insert sample records (plausible names, cities, picklist codes, dates) into an organization, owned by its primary user; a progress bar shows on a terminal')
    .requiredOption('--org <id>', 'organization id (required)')
    .option('--object <name>', 'object system name or number', 'account')
    .requiredOption('--count <n>', `how many records, 0 to ${SEED_MAX.toLocaleString('en-US')} (required)`, wholeNumber('--count', 0, SEED_MAX))
    .action(async (o: { org: string; object: string; count: number }) => {
      const { config, out } = ctx();
      await withStores(config, async (stores) => {
        const started = Date.now();
        const r = await stores.admin.seed({ orgId: o.org, object: o.object, count: o.count }, out.json ? undefined : progressBar(output.stderr));
        // A write as any other: the organization's change log pruned when due (docs/history.md § Retention).
        const service = new Service({ config, control: stores.control, records: stores.records, clock: Date.now });
        const identity = await operatorIdentity(stores.control, o.org);
        await service.changesWritten(identity, await stores.records.org(identity.org.id));
        const seconds = (Date.now() - started) / 1000;
        print(out, { inserted: r.inserted, object: r.object, seconds }, `Inserted ${r.inserted} ${r.object} records in ${seconds.toFixed(1)} s.`);
      });
    });

  program.command('export')
    .summary('write an object\'s records as CSV or NDJSON')
    .description('write every record of an object (every field, in key order) as CSV (a header row of field names) or NDJSON (one JSON object a line), streamed; to stdout unless --out. The summary goes to stdout with --out, else to stderr (one JSON object with --json). A progress bar shows on a terminal')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--object <name>', 'object system name or number (required)')
    .addOption(new Option('--format <format>', 'file format (required)').choices(TRANSFER_FORMATS).makeOptionMandatory())
    .option('--out <file>', 'file to write (default: stdout)')
    .action(async (o: { org: string; object: string; format: TransferFormat; out?: string }) => {
      const { config, out } = ctx();
      if (o.out !== undefined) outputFile('--out', o.out);
      await withStores(config, async (stores) => {
        const started = Date.now();
        const service = new Service({ config, control: stores.control, records: stores.records, clock: Date.now });
        const ex = await exportRecords(service, await operatorIdentity(stores.control, o.org), o.object);
        const draw = out.json ? undefined : progressBar(output.stderr);
        let written = 0;
        async function* counted() {
          for await (const page of ex.pages) {
            written += page.length;
            draw?.(written, Math.max(written, ex.total));
            yield page;
          }
        }
        const text = Readable.from(encodeRecords(o.format, ex.columns, counted()));
        if (o.out) await writeWhole(o.out, text);
        // Its reader gone (`| head`): stop, as other tools do, without a summary of records nobody read.
        else if (!(await writeChunks(output.stdout, text))) return;
        draw?.(written, written);
        const seconds = (Date.now() - started) / 1000;
        const summary = { object: ex.obj.systemName, format: o.format, records: written, ...(o.out ? { out: path.resolve(o.out) } : {}), seconds };
        const human = `Exported ${written} ${ex.obj.systemName} records as ${o.format}${o.out ? ` to ${path.resolve(o.out)}` : ''} in ${seconds.toFixed(1)} s.`;
        // Without --out, stdout holds the records: the summary goes to stderr.
        print({ json: out.json, stdout: o.out ? out.stdout : output.stderr }, summary, human);
      });
    });

  program.command('import')
    .summary('create records from a CSV or NDJSON file')
    .description('create a record of an object for each line of a CSV file (a header row of field names) or an NDJSON file (one JSON object a line), checked as POST /api/record checks a body; lines that fail are reported by line number and the others are written. System fields are set by the import (createdon now, the primary user as creator); a key column keeps the ids. A progress bar shows on a terminal')
    .requiredOption('--org <id>', 'organization id (required)')
    .requiredOption('--object <name>', 'object system name or number (required)')
    .addOption(new Option('--format <format>', 'file format (required)').choices(TRANSFER_FORMATS).makeOptionMandatory())
    .requiredOption('--in <file>', 'file to read (required; - for stdin)')
    .action(async (o: { org: string; object: string; format: TransferFormat; in: string }) => {
      const { config, out } = ctx();
      await withStores(config, async (stores) => {
        const started = Date.now();
        const service = new Service({ config, control: stores.control, records: stores.records, clock: Date.now });
        const identity = await operatorIdentity(stores.control, o.org);
        const total = o.in === '-' ? 0 : inputFileSize(o.in);
        // - is the CLI's input (the process's stdin, or what runCli was given).
        const source: NodeJS.ReadableStream = o.in === '-' ? input : fs.createReadStream(o.in);
        const draw = out.json || total === 0 ? undefined : progressBar(output.stderr);
        let read = 0;
        const counting = new Transform({
          transform(chunk: Buffer, _enc, done) {
            read += chunk.length;
            done(null, chunk);
          },
        });
        source.on('error', (err: Error) => counting.destroy(err));
        const r = await importRecords(service, identity, o.object, decodeRecords(o.format, source.pipe(counting)), () => draw?.(read, total));
        draw?.(total, total);
        const seconds = (Date.now() - started) / 1000;
        const shown = r.errors.slice(0, 20).map((e) => `  line ${e.line}: ${e.message}`);
        const more = r.failed > shown.length ? [`  … and ${r.failed - shown.length} more (all of them with --json, up to 1,000)`] : [];
        print(out, { ...r, seconds }, [`Created ${r.created} ${r.object} records in ${seconds.toFixed(1)} s; ${r.failed} lines refused.`, ...shown, ...more].join('\n'));
      });
    });

  program.command('backup')
    .summary('copy the data directory while the server runs')
    .description('copy every database of the data directory (control.db, limits.db, each organization\'s file) into a new or empty directory, with SQLite\'s online backup: safe while a server serves and writes. SQLite only; on PostgreSQL use pg_dump (docs/operations.md)')
    .requiredOption('--to <dir>', 'directory to write the backup to, new or empty (required)')
    .action(async (o: { to: string }) => {
      const { config, out } = ctx();
      const started = Date.now();
      const m = await backupData(config, path.resolve(o.to), out.json ? undefined : progressBar(output.stderr));
      const seconds = (Date.now() - started) / 1000;
      print(out, { to: path.resolve(o.to), files: m.files.length, organizations: m.organizations, bytes: m.bytes, seconds },
        `Backed up ${m.files.length} databases (${m.organizations} organizations, ${m.bytes} bytes) to ${path.resolve(o.to)} in ${seconds.toFixed(1)} s.`);
    });

  program.command('restore')
    .summary('put a backup into a stopped data directory')
    .description('put a backup made by orchard backup into the data directory. Refused while a server or another orchard command has it open; refused when it already holds data unless --force, which replaces it with the backup. SQLite only')
    .requiredOption('--from <dir>', 'a directory made by orchard backup --to (required)')
    .option('--force', 'replace the data directory\'s databases with the backup\'s (organizations the backup lacks are removed)')
    .action(async (o: { from: string; force?: boolean }) => {
      const { config, out } = ctx();
      const m = await restoreData(config, path.resolve(o.from), { force: o.force === true });
      print(out, { dataDir: config.dataDir, files: m.files.length, organizations: m.organizations, backupStartedAt: m.startedAt },
        `Restored ${m.files.length} databases (${m.organizations} organizations) from the backup started at ${m.startedAt} into ${config.dataDir}.`);
    });

  refuseUnknownCommands(program);
  return program;
}

/** The body members an option sets whose names are not the option's own (orchard fault add: --latency sets latencyMs). */
const MEMBERS_OF_OPTION: Readonly<Record<string, readonly string[]>> = { latency: ['latencyMs'], family: ['families'] };

/**
 * A message of the checks the API and the control API share names the members of a JSON body
 * ('url', headers[0], 'expiresInHours'; the control API's fault rules 'body.window' and
 * 'families.0'), where the CLI's user typed options. Each member `command` has an option for is
 * named as that option (--url, --header #1, --expires-in-hours, --window, --family #1); a repeated
 * option (--header) fills the plural member (headers).
 */
function namedAsOptions(message: string, command: Command | undefined): string {
  let named = message;
  for (const option of command?.options ?? []) {
    if (!option.long) continue;
    const flag = option.long;
    const attribute = option.attributeName();
    for (const member of [attribute, `${attribute}s`, ...(MEMBERS_OF_OPTION[attribute] ?? [])]) {
      named = named.replace(new RegExp(`'(?:body\\.)?${member}(?:\\.(\\d+))?'`, 'g'), (_, i?: string) => (i === undefined ? flag : `${flag} #${Number(i) + 1}`))
        .replace(new RegExp(`\\b${member}\\[(\\d+)\\]`, 'g'), (_, i: string) => `${flag} #${Number(i) + 1}`);
    }
  }
  return named;
}

/**
 * Runs the command with these arguments (those after `orchard`) and resolves to its exit status,
 * 0 or 1 on any failure, once the command is done (serve: once it listens).
 */
export async function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; output?: CliOutput; input?: InStream } = {}): Promise<number> {
  const output = options.output ?? PROCESS_OUTPUT;
  const program = buildCli(options.env, output, options.input);
  let ran: Command | undefined;
  program.hook('preAction', (_program, command) => {
    ran = command;
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (err) {
    // --help, `help <command>` and --version end parsing by throwing too, with exit code 0.
    if (err instanceof CommanderError && err.exitCode === 0) return 0;
    // The flag may sit after the bad part of the line, where commander stopped before parsing it.
    const json = program.opts<{ json?: boolean }>().json === true || args.includes('--json');
    let code: string;
    let message: string;
    if (err instanceof CommanderError) {
      // Commander has already explained the usage error on stderr.
      code = 'USAGE';
      message = err.message.replace(/^error: /, '');
    } else {
      code = isAppError(err) || err instanceof ControlError ? err.code : 'ERROR';
      message = err instanceof Error ? namedAsOptions(err.message, ran) : String(err);
      if (!json) output.stderr.write(`orchard: ${message}\n`);
    }
    if (json) output.stdout.write(JSON.stringify({ error: { code, message } }) + '\n');
    return 1;
  }
}

/** Runs the command line; sets process.exitCode (0, or 1 on any failure) rather than exiting. */
export async function main(argv: string[] = process.argv): Promise<void> {
  // A reader of stdout that goes away (`orchard … | head`) is no failure: what is left unwritten is not wanted.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  const status = await runCli(argv.slice(2));
  if (status !== 0) process.exitCode = status;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) await main();
