// Where usage notices go (docs/limits.md): over SMTP with nodemailer when SMTP_URL is set, otherwise as
// `.eml` files in <data>/outbox/, built by nodemailer's stream transport so they are the very
// message SMTP would have carried.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The Date of the message; the mailer's clock when absent. */
  readonly date?: Date;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message or its file is in the outbox; rejects otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL (credentials may be in it); undefined writes to the outbox. */
  readonly smtpUrl: string | undefined;
  readonly outboxDir: string;
  /** The From of every notice, e.g. `Orchard <orchard@example.com>`. */
  readonly from: string;
  /** Dates the messages and names the outbox files; milliseconds since the epoch. */
  readonly clock: () => number;
}

// nodemailer waits up to 2 minutes for a connection and 10 for an idle socket by default; a notice
// is not worth holding a close of the server that long.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options) : outboxMailer(options);
}

function smtpMailer(url: string, options: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, ...message, date: message.date ?? new Date(options.clock()) });
    },
    close: () => transport.close(),
  };
}

/** `20260301T120000123Z`: names that sort by the time they were written. */
function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}

function outboxMailer(options: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message, date: message.date ?? new Date(options.clock()) });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const name = `${stamp(options.clock())}-${randomBytes(4).toString('hex')}.eml`;
      // Written aside and renamed, so whoever reads the outbox never sees half a message.
      const temp = path.join(options.outboxDir, `.${name}.tmp`);
      await fs.writeFile(temp, info.message as Buffer);
      await fs.rename(temp, path.join(options.outboxDir, name));
    },
    close: () => {},
  };
}
