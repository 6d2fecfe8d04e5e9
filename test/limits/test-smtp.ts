// A real SMTP server for tests (smtp-server) on a free port: keeps what it receives, and can
// refuse or hold messages, so notice tests see mails as a mail server would.

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received { readonly to: string[]; readonly headers: Map<string, string>; readonly text: string }

/** Headers (unfolded, names lowercased) and decoded text of a single-part message. */
export function readMail(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = new Map<string, string>();
  for (const line of raw.slice(0, split).replace(/\r\n(?=[ \t])/g, '').split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = raw.slice(split + 4);
  const encoding = headers.get('content-transfer-encoding');
  if (encoding === 'quoted-printable') {
    body = Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  return { headers, text: body.replace(/\r\n/g, '\n') };
}

/** A real SMTP server on a free port that keeps what it receives; it can refuse or hold messages. */
export class TestSmtp {
  readonly received: Received[] = [];
  /** Messages still to refuse with a temporary failure. */
  refuse = 0;
  /** When set, a message is accepted only once this resolves. */
  hold: Promise<void> | undefined;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        await this.hold;
        if (this.refuse > 0) {
          this.refuse--;
          return done(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        }
        this.received.push({ to: session.envelope.rcptTo.map((r) => r.address), ...readMail(Buffer.concat(chunks).toString('utf8')) });
        done();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(resolve));
  }
}

