// orchard org delete asks before it drops an organization (docs/operations.md § Confirming what
// cannot be undone): a script — a child process, its standard input no terminal — is refused without
// --yes and nothing is deleted; at a terminal (a fake input stream that says it is one) the
// organization's name or id must be typed back. org reset and snapshot restore: fixtures-cli.test.ts.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tempDir } from '../helpers.js';
import { ok, oneJsonObject, runAtTerminal, runProcess } from './cli-runner.js';

const QUESTION = (name: string, id: string) =>
  `Organization '${name}' (${id}): it is deleted with its users, tokens, roles and every record. This cannot be undone.\nType the organization's name or id to go on: `;

describe('orchard org delete asks first', () => {
  let dir: string;
  before(() => (dir = tempDir('orchard-cli-confirm-')));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const create = async (name: string): Promise<string> => {
    const id = String((await ok(dir, ['org', 'create', '--name', name, '--email', 'ops@example.com'])).id);
    await ok(dir, ['seed', '--org', id, '--count', '2']);
    return id;
  };
  const listed = async (): Promise<string[]> => ((await ok(dir, ['org', 'list'])).items as Array<{ id: string }>).map((o) => o.id).sort();
  /** The organization's records, through export: what a deletion would drop. */
  const records = async (id: string): Promise<number> => Number((await ok(dir, ['export', '--org', id, '--object', 'account', '--format', 'ndjson', '--out', `${dir}/out.ndjson`])).records);

  test('a script is refused without --yes with CONFIRMATION_REQUIRED and nothing is deleted; with --yes it is', async () => {
    const id = await create('Scripted');
    const refused = await runProcess(['--data-dir', dir, '--json', 'org', 'delete', '--id', id]);
    assert.equal(refused.code, 1);
    assert.deepEqual(oneJsonObject(refused), { error: {
      code: 'CONFIRMATION_REQUIRED',
      message: 'orchard org delete cannot be undone, and standard input is not a terminal to ask for confirmation on: nothing was changed. Add --yes to confirm (in a script), or run it at a terminal to be asked.',
    } });
    assert.equal(refused.stderr, '', 'no question where nobody can answer it');
    const plain = await runProcess(['--data-dir', dir, 'org', 'delete', '--id', id]);
    assert.deepEqual([plain.code, plain.stdout], [1, '']);
    assert.match(plain.stderr, /^orchard: orchard org delete cannot be undone.*Add --yes/);
    assert.ok((await listed()).includes(id));
    assert.equal(await records(id), 2);

    const deleted = await runProcess(['--data-dir', dir, '--json', 'org', 'delete', '--id', id, '--yes']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(oneJsonObject(deleted), { id, name: 'Scripted', deleted: true });
    assert.ok(!(await listed()).includes(id));
  });

  test('at a terminal it asks on stderr for the name or id; another answer, or none, deletes nothing', async () => {
    const id = await create('Acme Two');
    for (const typed of ['acme two', 'Acme', '', null]) {
      const r = await runAtTerminal(['--data-dir', dir, '--json', 'org', 'delete', '--id', id], typed);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, QUESTION('Acme Two', id), 'the question goes to stderr');
      const { error } = oneJsonObject(r) as { error: { code: string; message: string } };
      assert.equal(error.code, 'CONFIRMATION_MISMATCH', `typed ${JSON.stringify(typed)}`);
      assert.equal(error.message, `${typed ? `'${typed}' is neither the organization's name nor its id` : 'Nothing was typed'}: nothing was changed. Run orchard org delete again and type 'Acme Two' or ${id} (or add --yes).`);
    }
    assert.ok((await listed()).includes(id));
    assert.equal(await records(id), 2);

    const byName = await runAtTerminal(['--data-dir', dir, 'org', 'delete', '--id', id], '  Acme Two ');
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal(byName.stdout, `Organization Acme Two (${id}) deleted, with its users, tokens and records.\n`);
    assert.ok(!(await listed()).includes(id));

    const other = await create('Acme Three');
    const byId = await runAtTerminal(['--data-dir', dir, '--json', 'org', 'delete', '--id', other], other.toUpperCase());
    assert.deepEqual(oneJsonObject(byId), { id: other, name: 'Acme Three', deleted: true });
  });

  test('at a terminal, an organization that does not exist is refused without a question', async () => {
    const r = await runAtTerminal(['--data-dir', dir, '--json', 'org', 'delete', '--id', '00000000-0000-4000-8000-000000000000'], '');
    assert.equal((oneJsonObject(r) as { error: { code: string } }).error.code, 'ORGANIZATION_NOT_FOUND');
    assert.equal(r.stderr, '');
  });
});
