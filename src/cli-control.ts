// The `orchard` commands that act on what a running server holds in memory (docs/control-api.md):
// its clocks, fault rules, request journal, outbox, the limits' usage and its webhook deliveries. Each calls the control API through
// ControlClient, at --url or ORCHARD_URL with ADMIN_KEY, and prints the reply (--json: as is).

import { InvalidArgumentError, type Command } from 'commander';
import { controlClientFrom, type ClockState, type FaultRule, type FaultRuleInput, type OrganizationUsage, type OutboxMessage } from './control-client.js';

/** How the command prints: the reply as one JSON object with --json, else the human line. */
export type Print = (value: object, human: string) => void;

/** A line of the outbox: an e-mail, or a webhook delivery's attempt and what it got. */
const outboxLine = (m: OutboxMessage) => `${m.at}  to ${m.to}  ${m.subject}${m.kind === 'webhook-delivery' ? `  ${m.ok ? `${m.status}` : `failed: ${m.error}`}` : ''}`;

function usageText(u: OrganizationUsage): string {
  if (!u.counted || !u.minute) return 'This server counts nothing (RATE_LIMITS=off).';
  const lines = [`Minute: ${u.minute.used} of ${u.minute.quota} (quota back in ${u.minute.resetSeconds} s)`];
  if (u.day) lines.push(`Day ${u.day.day}: ${u.day.used} of ${u.day.quota} (resets in ${u.day.resetSeconds} s)`);
  const busy = u.days.filter((d) => d.count > 0);
  lines.push(busy.length ? `Last 30 days: ${busy.map((d) => `${d.day} ${d.count}`).join(', ')}` : 'Last 30 days: no request');
  for (const n of u.notices) lines.push(`Notice ${n.day} at ${n.threshold} %: ${n.used} of ${n.cap}, ${n.sentAt ? `sent ${n.sentAt}` : 'not sent yet'}`);
  return lines.join('\n');
}

const list = (raw: string): string[] => raw.split(',').map((s) => s.trim()).filter(Boolean);

function number(name: string, integer: boolean) {
  return (raw: string): number => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) throw new InvalidArgumentError(`${name} must be a${integer ? ' whole' : ''} number.`);
    return n;
  };
}

const clockLine = (c: ClockState) =>
  `${c.orgId === null ? 'Server' : `Organization ${c.orgId}`}: ${c.now} (${c.inherited ? 'follows the server\'s clock, ' : ''}${c.mode}${c.offsetMs !== 0 ? `, ${c.offsetMs >= 0 ? '+' : ''}${c.offsetMs} ms from real time` : ''})`;

const ruleLine = (r: FaultRule) => [
  r.id,
  r.status !== undefined ? `status ${r.status}${r.window ? ` (${r.window})` : ''}` : '',
  r.latencyMs ? `+${r.latencyMs} ms` : '',
  r.orgId ? `org ${r.orgId}` : 'any org',
  r.methods ? r.methods.join(',') : '',
  r.families ? r.families.join(',') : '',
  r.object ? `object ${r.object}` : '',
  r.probability !== undefined ? `p=${r.probability} seed ${r.seed}` : '',
  r.remaining !== null ? `${r.remaining} left` : '',
  `matched ${r.matched}, fired ${r.fired}`,
].filter(Boolean).join('  ');

/** `localServer`: the address of the server this environment configures (cli.ts), when neither --url nor ORCHARD_URL is given. */
export function addControlCommands(program: Command, env: NodeJS.ProcessEnv, print: () => Print, localServer: () => string): void {
  const url = '--url <url>';
  const urlHelp = 'the running server (default: ORCHARD_URL, else HOST and PORT as the server reads them)';
  const client = (o: { url?: string }) => controlClientFrom(env, o.url, localServer);

  const clock = program.command('clock').description('move a running server\'s clock, or one organization\'s (clock show, freeze, set, advance, real)');
  /** The clock --org names, or the server's (an empty --org too). */
  const clockOf = (org?: string): string | null => org || null;
  const orgOption = ['--org <id>', 'an organization\'s own clock rather than the server\'s'] as const;
  const showClock = async (call: Promise<ClockState>) => {
    const state = await call;
    print()(state, clockLine(state));
  };
  clock.command('show').description('the server\'s clock and every organization\'s own, or one organization\'s')
    .option(...orgOption).option(url, urlHelp)
    .action(async (o: { org?: string; url?: string }) => {
      if (o.org) return showClock(client(o).getClock(o.org));
      const items = await client(o).listClocks();
      print()({ items }, items.map(clockLine).join('\n'));
    });
  clock.command('freeze').description('stop the clock, where it stands or at --at')
    .option(...orgOption).option('--at <date-time>', 'ISO 8601; UTC when it has no zone').option(url, urlHelp)
    .action((o: { org?: string; at?: string; url?: string }) => showClock(client(o).freezeClock(clockOf(o.org), o.at || undefined)));
  clock.command('set').description('set the clock to --at; it keeps running unless frozen (or --frozen)')
    .option(...orgOption).requiredOption('--at <date-time>', 'ISO 8601; UTC when it has no zone (required)').option('--frozen', 'stop it there').option(url, urlHelp)
    .action((o: { org?: string; at: string; frozen?: boolean; url?: string }) => showClock(client(o).setClock(clockOf(o.org), o.at, o.frozen ? { frozen: true } : {})));
  clock.command('advance').description('move the clock forward (backward with a minus sign)')
    .option(...orgOption).requiredOption('--by <duration>', 'e.g. 90s, 25h, 1d2h, -1h (required)').option(url, urlHelp)
    .action((o: { org?: string; by: string; url?: string }) => showClock(client(o).advanceClock(clockOf(o.org), o.by)));
  clock.command('real').description('back to real time (an organization: back to the server\'s clock)')
    .option(...orgOption).option(url, urlHelp)
    .action((o: { org?: string; url?: string }) => showClock(client(o).resetClock(clockOf(o.org))));

  const fault = program.command('fault').description('fault rules of a running server (fault list, add, remove, clear)');
  fault.command('list').description('the fault rules, in the order they are tried')
    .option('--org <id>', 'only this organization\'s rules').option(url, urlHelp)
    .action(async (o: { org?: string; url?: string }) => {
      const items = await client(o).listFaultRules({ orgId: o.org || undefined });
      print()({ items }, items.map(ruleLine).join('\n') || 'No fault rules.');
    });
  fault.command('add').description('add a rule: matching requests get a forced reply in their route family\'s shape, and/or wait')
    .option('--status <status>', '429, 500, 503 or 408', number('--status', true))
    .option('--latency <ms>', 'milliseconds added before the request goes on', number('--latency', true))
    .option('--org <id>', 'only this organization\'s requests')
    .option('--method <methods>', 'comma-separated HTTP methods', list)
    .option('--family <families>', 'comma-separated route families: records, query, metadata, v2, v3, organization, webhooks', list)
    .option('--object <object>', 'only requests about this object (system name or number)')
    .option('--probability <p>', 'fire on each match with this probability (0 to 1]', number('--probability', false))
    .option('--seed <n>', 'seed of the probability\'s draws', number('--seed', true))
    .option('--count <n>', 'fire for the next N matches, then remove the rule', number('--count', true))
    .option('--window <window>', 'for 429: minute (default) or day')
    .option('--retry-after <s>', 'for 429 and 503: Retry-After in seconds', number('--retry-after', true))
    .option(url, urlHelp)
    .action(async (o: { status?: number; latency?: number; org?: string; method?: string[]; family?: string[]; object?: string; probability?: number; seed?: number; count?: number; window?: string; retryAfter?: number; url?: string }) => {
      const rule = {
        ...(o.status !== undefined ? { status: o.status } : {}), ...(o.latency !== undefined ? { latencyMs: o.latency } : {}),
        ...(o.org ? { orgId: o.org } : {}), ...(o.method ? { methods: o.method } : {}), ...(o.family ? { families: o.family } : {}),
        ...(o.object ? { object: o.object } : {}), ...(o.probability !== undefined ? { probability: o.probability } : {}),
        ...(o.seed !== undefined ? { seed: o.seed } : {}), ...(o.count !== undefined ? { count: o.count } : {}),
        ...(o.window ? { window: o.window } : {}), ...(o.retryAfter !== undefined ? { retryAfter: o.retryAfter } : {}),
      };
      // The options' values go as they are: the server checks them (BODY_INVALID).
      const r = await client(o).addFaultRule(rule as FaultRuleInput);
      print()(r, `Added ${ruleLine(r)}`);
    });
  fault.command('remove').description('remove a fault rule')
    .requiredOption('--id <id>', 'the rule id (required)').option(url, urlHelp)
    .action(async (o: { id: string; url?: string }) => {
      await client(o).removeFaultRule(o.id);
      print()({ removed: o.id }, `Removed ${o.id}.`);
    });
  fault.command('clear').description('remove every fault rule (of one organization with --org)')
    .option('--org <id>', 'only this organization\'s rules').option(url, urlHelp)
    .action(async (o: { org?: string; url?: string }) => {
      const removed = await client(o).clearFaultRules({ orgId: o.org || undefined });
      print()({ removed }, `Removed ${removed} rule${removed === 1 ? '' : 's'}.`);
    });

  const journal = program.command('journal').description('an organization\'s request journal on a running server (journal list, clear); JOURNAL_SIZE must be set on the server');
  journal.command('list').description('the organization\'s last requests, newest first')
    .requiredOption('--org <id>', 'organization id (required)')
    .option('--method <method>', 'only this method').option('--path <text>', 'only paths containing this text')
    .option('--status <status>', 'a status (404) or a class (4xx)').option('--since <date-time>', 'at or after').option('--until <date-time>', 'before')
    .option('--limit <n>', 'at most this many', number('--limit', true)).option(url, urlHelp)
    .action(async (o: { org: string; method?: string; path?: string; status?: string; since?: string; until?: string; limit?: number; url?: string }) => {
      const r = await client(o).getJournal(o.org, { method: o.method, path: o.path, status: o.status, since: o.since, until: o.until, limit: o.limit });
      print()(r, r.size === 0 ? 'The server keeps no journal (JOURNAL_SIZE is 0).'
        : r.items.map((e) => `${e.at}  ${e.method} ${e.path}  ${e.status}  ${e.durationMs} ms  ${e.requestId}`).join('\n') || 'No requests.');
    });
  journal.command('clear').description('forget the organization\'s journal')
    .requiredOption('--org <id>', 'organization id (required)').option(url, urlHelp)
    .action(async (o: { org: string; url?: string }) => {
      await client(o).clearJournal(o.org);
      print()({ cleared: true }, 'Journal cleared.');
    });

  program.command('usage').description('an organization\'s use of its limits on a running server: the minute and the day against their quotas, the requests of each of the last 30 days, the notices (reading it counts nothing)')
    .requiredOption('--org <id>', 'organization id (required)').option(url, urlHelp)
    .action(async (o: { org: string; url?: string }) => {
      const r = await client(o).getOrganizationUsage(o.org);
      print()(r, usageText(r));
    });

  // The webhook group is the CLI's (cli.ts, on the data directory); this command acts on a running server.
  const webhook = program.commands.find((c) => c.name() === 'webhook') ?? program.command('webhook');
  webhook.command('flush').description('on a running server, attempt every webhook delivery due now (each organization\'s clock decides what is due) and wait for them')
    .option(url, urlHelp)
    .action(async (o: { url?: string }) => {
      await client(o).flushWebhooks();
      print()({ flushed: true }, 'Due webhook deliveries attempted.');
    });

  const outbox = program.command('outbox').description('the messages a running server sent about an organization (outbox list, clear)');
  outbox.command('list').description('the messages sent, newest first: usage notices, webhook deliveries (each attempt) and notices of disabled webhooks')
    .requiredOption('--org <id>', 'organization id (required)').option(url, urlHelp)
    .action(async (o: { org: string; url?: string }) => {
      const items = await client(o).listOutbox(o.org);
      print()({ items }, items.map(outboxLine).join('\n') || 'No messages.');
    });
  outbox.command('clear').description('forget the organization\'s outbox (the messages stay sent)')
    .requiredOption('--org <id>', 'organization id (required)').option(url, urlHelp)
    .action(async (o: { org: string; url?: string }) => {
      await client(o).clearOutbox(o.org);
      print()({ cleared: true }, 'Outbox cleared.');
    });
}
