// The "integration under test": a small job that copies a CRM's accounts changed since a moment
// into a local map, as a real integration would, through the typed client (orchard-client). It
// knows nothing of Orchard: pointed at the public service with a real token it does the same.

import { createOrchardClient, type RetryOptions } from 'orchard-client';

export interface SyncOptions {
  readonly baseUrl: string;
  readonly token: string;
  readonly retry?: RetryOptions;
}

export interface SyncedAccount {
  readonly id: string;
  readonly name: string;
  readonly modifiedon: string;
}

/** Every account modified at or after `since`, by id. */
export async function syncAccounts(options: SyncOptions, since: string): Promise<Map<string, SyncedAccount>> {
  const crm = createOrchardClient({ baseUrl: options.baseUrl, token: options.token, ...(options.retry ? { retry: options.retry } : {}) });
  const out = new Map<string, SyncedAccount>();
  const rows = crm.query({
    objecttype: 1,
    fields: 'accountid,accountname,modifiedon',
    query: `(modifiedon >= '${since}')`,
    sort_by: 'modifiedon',
    sort_type: 'asc',
    page_size: 50,
  });
  for await (const row of rows) {
    out.set(String(row.accountid), { id: String(row.accountid), name: String(row.accountname), modifiedon: String(row.modifiedon) });
  }
  return out;
}
