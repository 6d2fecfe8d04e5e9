// Runs the `orchard` command the way scripts do: in this process through runCli, its stdout and
// stderr captured (a child process per call spent most of the CLI suites' time starting Node), or
// as a child process for what only a process shows. The environment cannot point it elsewhere; the
// --json helpers assert one JSON object on one line of stdout.

import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { InStream } from '../../src/cli-confirm.js';
import { runCli } from '../../src/cli.js';

export const BIN = fileURLToPath(new URL('../../../bin/orchard.js', import.meta.url));

/** The test's environment without what would point the CLI elsewhere (CI sets DATABASE_URL and REDIS_URL; these tests use --data-dir). */
export const childEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) =>
  !['DATABASE_URL', 'REDIS_URL', 'DATA_DIR', 'PORT', 'HOST', 'BASE_URL', 'LOG_LEVEL', 'NODE_TEST_CONTEXT'].includes(k)));

export interface Run { code: number | null; stdout: string; stderr: string }

/**
 * Runs `orchard …` in this process, with an empty environment and a standard input that is not a
 * terminal (as a script's), whatever the test runner's is.
 */
export async function run(args: readonly string[], input: InStream = Readable.from([])): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const output = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } };
  const code = await runCli(args, { env: {}, output, input });
  return { code, stdout, stderr };
}

/** Runs `orchard …` in this process as at a terminal where `typed` is typed, then Enter (null: the input ends at once, Ctrl-D). */
export function runAtTerminal(args: readonly string[], typed: string | null): Promise<Run> {
  return run(args, Object.assign(Readable.from(typed === null ? [] : [`${typed}\n`]), { isTTY: true }));
}

/** Runs `node bin/orchard.js …` as a child process to its exit. */
export function runProcess(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Asserts stdout is exactly one JSON object on one line and returns it. */
export function oneJsonObject(r: Run): Record<string, unknown> {
  assert.ok(r.stdout.endsWith('\n'), `stdout ends with a newline: ${JSON.stringify(r.stdout)} (stderr: ${r.stderr})`);
  assert.equal(r.stdout.trimEnd().split('\n').length, 1, `one line on stdout: ${r.stdout}`);
  const body: unknown = JSON.parse(r.stdout);
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), 'a JSON object');
  return body as Record<string, unknown>;
}

/** Runs `orchard --data-dir <dir> --json …`; asserts stdout is exactly one JSON object on one line and returns it. */
export async function runJson(dir: string, args: readonly string[]): Promise<{ code: number | null; body: Record<string, unknown>; stderr: string }> {
  const r = await run(['--data-dir', dir, '--json', ...args]);
  return { code: r.code, body: oneJsonObject(r), stderr: r.stderr };
}

export async function ok(dir: string, args: readonly string[]): Promise<Record<string, unknown>> {
  const r = await runJson(dir, args);
  assert.equal(r.code, 0, `exit 0 for ${args.join(' ')}: ${JSON.stringify(r.body)} ${r.stderr}`);
  return r.body;
}

export async function fails(dir: string, args: readonly string[], code?: string): Promise<{ code: string; message: string }> {
  const r = await runJson(dir, args);
  assert.notEqual(r.code, 0, `non-zero exit for ${args.join(' ')}`);
  assert.deepEqual(Object.keys(r.body), ['error']);
  const error = r.body.error as { code: string; message: string };
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message']);
  assert.equal(typeof error.code, 'string');
  assert.ok(typeof error.message === 'string' && error.message.length > 0);
  if (code) assert.equal(error.code, code, error.message);
  return error;
}

/** `orchard … serve` started as a child process, once it has printed its first line. */
export interface Served {
  readonly proc: ChildProcessWithoutNullStreams;
  /** Its first line of stdout. */
  readonly first: string;
  /** Settles with the exit code. */
  readonly exited: Promise<number | null>;
  /** Everything written so far. */
  readonly stdout: () => string;
  readonly stderr: () => string;
}

/**
 * Starts `node bin/orchard.js <args>` (a serve) with PORT=0 and resolves once it prints its first
 * line; rejects if it exits first. `env` adds to the environment (DATABASE_URL for a server on PostgreSQL).
 */
export async function serveProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const proc = spawn(process.execPath, [BIN, ...args], { env: { ...childEnv, ...env, PORT: '0' } });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  try {
    const first = await new Promise<string>((resolve, reject) => {
      proc.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      });
      void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    return { proc, first, exited, stdout: () => stdout, stderr: () => stderr };
  } catch (err) {
    if (proc.exitCode === null) proc.kill('SIGKILL');
    throw err;
  }
}
