// The confirmation the `orchard` commands that drop an organization's data ask for (docs/operations.md
// § Confirming what cannot be undone): at a terminal, the organization's name or id typed back; with
// no terminal to ask on (a script), --yes, else a refusal before anything is changed.

import { createInterface } from 'node:readline';
import { AppError } from './errors.js';

/** Where the answer is read: the process's stdin, or a fake in tests. Only a terminal is asked. */
export interface InStream extends NodeJS.ReadableStream {
  readonly isTTY?: boolean;
}

/** A command about to drop an organization's data, as its confirmation names it. */
export interface Destructive {
  /** The command as it is typed, e.g. `org delete`. */
  readonly command: string;
  readonly orgId: string;
  /** What is lost, after the organization's name: "its users, tokens, roles and every record are deleted". */
  readonly loss: string;
  /** --yes was given. */
  readonly yes: boolean;
  /**
   * The organization's name, looked up only when the question is asked (a script refused for want
   * of --yes needs no store or server). Null when there is nothing to drop (no such organization, or
   * snapshot to restore): nothing is asked, and the command goes on to be refused by what it calls.
   */
  readonly nameOf: () => Promise<string | null>;
}

/** The first line typed, or null when the input ends first; lets go of the input after it. */
async function readLine(input: InStream): Promise<string | null> {
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  try {
    for await (const line of lines) return line;
    return null;
  } finally {
    lines.close();
  }
}

/**
 * Resolves once `action` is confirmed: by --yes, or by the organization's name or id typed back at a
 * terminal (the question goes to `prompt`, standard error, so stdout keeps only the result). Throws
 * CONFIRMATION_REQUIRED when the input is not a terminal and --yes was not given, and
 * CONFIRMATION_MISMATCH when another answer is typed; the caller has changed nothing by then.
 */
export async function confirmDestructive(action: Destructive, input: InStream, prompt: { write(text: string): unknown }): Promise<void> {
  if (action.yes) return;
  if (input.isTTY !== true) {
    throw new AppError('CONFIRMATION_REQUIRED', `orchard ${action.command} cannot be undone, and standard input is not a terminal to ask for confirmation on: nothing was changed. Add --yes to confirm (in a script), or run it at a terminal to be asked.`);
  }
  const name = await action.nameOf();
  if (name === null) return;
  prompt.write(`Organization '${name}' (${action.orgId}): ${action.loss}. This cannot be undone.\nType the organization's name or id to go on: `);
  const answer = (await readLine(input))?.trim();
  if (answer !== name && answer?.toLowerCase() !== action.orgId.toLowerCase()) {
    throw new AppError('CONFIRMATION_MISMATCH', `${answer ? `'${answer}' is neither the organization's name nor its id` : 'Nothing was typed'}: nothing was changed. Run orchard ${action.command} again and type '${name}' or ${action.orgId} (or add --yes).`);
  }
}
