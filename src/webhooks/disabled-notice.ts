// The e-mail to an organization's primary user when one of its webhooks is disabled for failing too
// long (docs/webhooks.md § Disabling), sent through the mailer of the usage notices. It names the
// receiver's URL with its query values masked: an e-mail is kept in mailboxes and files.

import { maskedUrl } from './webhook-admin.js';
import type { Webhook } from './webhook-types.js';

/** `objectName`: the system name of the webhook's object, when it has one (else its number is shown). */
export function composeDisabledNotice(orgId: string, hook: Webhook, to: { email: string; orgName: string }, objectName?: string): { to: string; subject: string; text: string } {
  const what = `${hook.event} events${hook.objectType === null ? '' : ` of ${objectName ?? `object ${hook.objectType}`}`}`;
  const text = [
    'Hello,',
    '',
    `A webhook of the organization "${to.orgName}" (${orgId}) has been disabled: its deliveries to ${maskedUrl(hook.url)} failed ${hook.failures} times in a row since ${hook.failingSince ?? 'then'} (UTC).`,
    `Webhook ${hook.id} (${what}) gets no deliveries until it is enabled again; the deliveries it had pending were given up.`,
    '',
    `Its delivery log shows what the receiver answered: GET /api/webhooks/${hook.id}/deliveries.`,
    `Once the receiver answers again, enable it with POST /api/webhooks/${hook.id}/enable (an admin token of the organization),`,
    `or orchard webhook enable --org ${orgId} --id ${hook.id}.`,
    '',
    'Orchard',
    '',
  ].join('\n');
  return { to: to.email, subject: `Orchard: a webhook of ${to.orgName} was disabled after failing since ${hook.failingSince ?? 'long'}`, text };
}
