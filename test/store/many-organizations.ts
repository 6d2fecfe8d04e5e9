// Run by open-organizations.test.ts in a process of its own, under a descriptor limit: creates
// organizations one after another, each with a request that opens its records (a list page), then
// lists the first one's again. Prints `served N` and exits 0, or prints the error and exits 1.
// Arguments: the data directory, how many organizations, and OPEN_ORGS.

import { loadConfig } from '../../src/config.js';
import { openStores } from '../../src/stores.js';

const [dataDir, count, openOrgs] = process.argv.slice(2);
const stores = openStores(loadConfig({ OPEN_ORGS: openOrgs }, { dataDir: dataDir!, logLevel: 'silent' }));
let served = 0;
try {
  const listPage = async (orgId: string) => {
    const records = await stores.records.org(orgId);
    const accounts = (await records.schema()).resolve('account');
    return records.list(accounts, { limit: 10, offset: 0 });
  };
  let first: string | undefined;
  for (let i = 0; i < Number(count); i++) {
    const { org } = await stores.admin.createOrganization({ name: `Org ${i}`, plan: 'free', email: `owner${i}@example.com`, minuteLimit: null });
    first ??= org.id;
    await listPage(org.id);
    served++;
  }
  await listPage(first!);
  console.log(`served ${served}`);
} catch (err) {
  console.log(`failed after ${served}: ${String(err)}`);
  process.exitCode = 1;
} finally {
  await stores.close();
}
