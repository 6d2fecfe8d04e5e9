// Keeps the dependencies of src/ running one way (docs/internals/architecture.md): reads every import of every source
// file and fails on a cycle between files, on an edge between folders that the list below does not
// allow, and on a library used outside the folder that owns it (SQL under store/ only, Fastify under
// http/ and the files that build and start the app only).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * The modules of src/: each folder, and each file at the top. For each, the modules it may import,
 * lowest first. Nothing below `service` knows HTTP; nothing but `store` writes SQL; the top-level
 * files wire the rest together.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  errors: [],
  // A setting refused is an AppError of code CONFIG_INVALID.
  config: ['errors'],
  version: [],
  // The control API's replies typed as the values it sends: a clock, a fault rule, a journal entry, a token.
  'control-types': ['auth', 'toolkit'],
  'control-client': ['control-types'],
  random: [],
  // A count of holders allowed at once (the worker's attempts, the fixtures loads' connections).
  slots: [],
  // The hidden file a write whole or not at all goes to first: the CLI's exports, the stores' snapshots.
  'partial-file': [],
  schema: ['errors'],
  query: ['errors', 'schema'],
  auth: ['errors', 'schema', 'query'],
  limits: ['errors', 'config', 'auth'],
  // Webhooks' definitions, filters, signatures, target checks and the delivery worker (docs/webhooks.md):
  // query types and matches a filter; config: the worker's settings. The outbox it works on is a
  // contract of its own (webhook-types.ts) that the stores implement.
  // control-client: a webhook is shown as the control API's client reads it (one type for both).
  // auth: a webhook on one object needs a plan that includes it, however it is made (webhook-admin.ts).
  webhooks: ['errors', 'config', 'control-client', 'slots', 'schema', 'query', 'auth'],
  // webhooks: each write makes its deliveries in its own transaction (store/webhook-outbox.ts).
  store: ['errors', 'config', 'partial-file', 'slots', 'schema', 'query', 'auth', 'limits', 'webhooks'],
  // query: a view defined with the CLI is checked by the query plan, as one defined through the API.
  // webhooks: a webhook made with the CLI or a fixtures file is checked and made as one made through the API.
  admin: ['errors', 'random', 'schema', 'query', 'auth', 'store', 'webhooks'],
  // webhooks: the API's webhooks are checked and made as the CLI's and the fixtures' are.
  service: ['errors', 'config', 'schema', 'query', 'auth', 'store', 'webhooks'],
  // Organizations as fixtures: the fixtures format, loaded and exported through the stores with
  // the checks of the API (schema) and of `role set` (admin).
  // toolkit: a file's fault rules are checked as the control API checks them.
  // webhooks: a file's webhooks are checked as the API checks them.
  fixtures: ['errors', 'schema', 'auth', 'store', 'admin', 'toolkit', 'webhooks'],
  // The integrator's tools' state (clocks, fault rules, journal, outbox): plain data, no HTTP.
  // schema: a clock reads dates in the calendar records use (values.ts).
  toolkit: ['errors', 'random', 'schema'],
  // admin: the control API (http/control/) runs the administration the CLI runs; fixtures: its
  // reset, snapshots, export and load; toolkit: the control API and the service routes' fault and
  // journal hooks act on the tools' state.
  // webhooks: the webhook routes' schemas name its events and methods.
  http: ['errors', 'config', 'schema', 'query', 'auth', 'limits', 'admin', 'service', 'fixtures', 'toolkit', 'webhooks'],
  // errors: backup and restore refuse PostgreSQL with a code.
  stores: ['errors', 'config', 'admin', 'limits', 'store'],
  // webhooks: the delivery worker starts and stops with the app.
  app: ['errors', 'config', 'version', 'auth', 'limits', 'admin', 'service', 'fixtures', 'http', 'toolkit', 'webhooks'],
  // version: the line the server logs when it starts names it.
  server: ['errors', 'config', 'version', 'app', 'stores', 'fixtures', 'http'],
  'cli-control': ['control-client'],
  'cli-confirm': ['errors'],
  // service: import and export run the service's pipeline.
  // webhooks: the webhook commands print what the API shows.
  // schema: an unknown command's nearest one is found as an unknown field's is (suggest.ts).
  cli: ['errors', 'config', 'version', 'partial-file', 'schema', 'control-client', 'cli-control', 'cli-confirm', 'auth', 'admin', 'service', 'fixtures', 'stores', 'server', 'webhooks'],
  // The entry point of `orchard/testing`: a server for a test suite, with its control client.
  testing: ['config', 'control-client', 'fixtures', 'server'],
};

/** Packages only some modules may import. */
const OWNED: Readonly<Record<string, readonly string[]>> = {
  'better-sqlite3': ['store'],
  pg: ['store'],
  kysely: ['store'],
  fastify: ['http', 'app', 'server'],
  '@fastify/swagger': ['app'],
  '@fastify/swagger-ui': ['app'],
  ioredis: ['limits'],
  'pino-pretty': ['http'],
  '@fastify/cors': ['app'],
  'find-my-way': ['http'],
  'prom-client': ['http'],
  '@fastify/static': ['http'],
};

interface SourceFile {
  /** Relative to src/, with forward slashes. */
  readonly file: string;
  readonly module: string;
  /** Files of src/ it imports (relative to src/), and packages. */
  readonly files: string[];
  readonly packages: string[];
}

function moduleOf(file: string): string {
  const [first, ...rest] = file.split('/');
  return rest.length > 0 ? first! : first!.replace(/\.ts$/, '');
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function readSources(): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (entry.name.endsWith('.ts')) {
        const file = path.relative(SRC, abs).split(path.sep).join('/');
        const text = fs.readFileSync(abs, 'utf8');
        const files: string[] = [];
        const packages: string[] = [];
        for (const m of text.matchAll(SPECIFIER)) {
          const spec = (m[1] ?? m[2])!;
          if (spec.startsWith('.')) files.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
          else if (!spec.startsWith('node:')) packages.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
        }
        out.push({ file, module: moduleOf(file), files, packages });
      }
    }
  };
  walk(SRC);
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

/** A cycle among `edges` (node → nodes), as the path that closes it, or null. */
function findCycle(edges: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return null;
}

describe('the architecture of src/', () => {
  const sources = readSources();

  test('reads the imports of every source file, each resolving to a file of src/', () => {
    assert.ok(sources.length > 50, `${sources.length} files read`);
    const known = new Set(sources.map((s) => s.file));
    for (const s of sources) for (const f of s.files) assert.ok(known.has(f), `${s.file} imports ${f}, which is not a file of src/`);
    assert.ok(sources.some((s) => s.module === 'service'), 'the service layer is among them');
  });

  test('no file imports another that leads back to it', () => {
    const cycle = findCycle(new Map(sources.map((s) => [s.file, s.files])));
    assert.equal(cycle, null, `an import cycle: ${cycle?.join(' → ')}`);
  });

  test('every edge between modules is one the written list allows', () => {
    const modules = new Set(sources.map((s) => s.module));
    assert.deepEqual([...modules].filter((m) => !(m in ALLOWED)), [], 'every module of src/ is in the list');
    const wrong = sources.flatMap((s) => s.files.map(moduleOf).filter((m) => m !== s.module && !ALLOWED[s.module]!.includes(m))
      .map((m) => `${s.file} → ${m}`));
    assert.deepEqual(wrong, []);
    const edges = new Map(Object.entries(ALLOWED));
    assert.equal(findCycle(edges), null, 'the allowed edges themselves run one way');
  });

  test('libraries are used only by the modules that own them: SQL under store/, Fastify in the HTTP layer', () => {
    const wrong = sources.flatMap((s) => s.packages.filter((p) => p in OWNED && !OWNED[p]!.includes(s.module)).map((p) => `${s.file} imports ${p}`));
    assert.deepEqual(wrong, []);
  });

  test('no SQL is written outside store/', () => {
    const sql = /\b(?:SELECT\s+[\w*]|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(?:TABLE|INDEX|SCHEMA)|ALTER\s+TABLE|PRAGMA\s+\w)/;
    const wrong = sources.filter((s) => s.module !== 'store' && sql.test(fs.readFileSync(path.join(SRC, s.file), 'utf8'))).map((s) => s.file);
    assert.deepEqual(wrong, []);
  });

  const text = (s: SourceFile) => fs.readFileSync(path.join(SRC, s.file), 'utf8');

  test('the hidden file a write whole or not at all goes to first is named in partial-file.ts only', () => {
    assert.deepEqual(sources.filter((s) => text(s).includes('.partial-')).map((s) => s.file), ['partial-file.ts']);
  });

  test('ids are checked by isUuid, not by a pattern of their own, but where a store guards a name', () => {
    // The record and control stores' own patterns guard the ids they turn into file names and SQL
    // (lower case only, as the ids are made); the backup's files are checked with isUuid.
    const uuidPattern = /\[0-9a-f\]\{8\}-/;
    assert.deepEqual(sources.filter((s) => uuidPattern.test(text(s))).map((s) => s.file),
      ['schema/values.ts', 'store/postgres/postgres-control-ddl.ts', 'store/postgres/postgres-record-store.ts', 'store/sqlite/sqlite-record-store.ts']);
  });

  test('finds a cycle and a forbidden edge when there is one (the checks can fail)', () => {
    assert.deepEqual(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]])), ['a', 'b', 'c', 'a']);
    assert.equal(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', []]])), null);
    assert.ok(!ALLOWED.store!.includes('http') && !ALLOWED.service!.includes('http'));
  });
});
