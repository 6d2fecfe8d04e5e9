// The console end to end in Chromium (docs/console.md): a real server from fixtures (a test that
// needs other settings or a restart starts one of its own), one browser for the whole suite, each
// test a new tab. Signed in with a token: objects and counts, a record table (columns, sort, pages, a
// filter with its errors and suggestions), a record page (edit by field type, create, delete,
// lookups), a role's limits, the usage moving live, webhooks. Signed in with the admin key: the
// request journal, the toolkit, people and tokens. Every view at a phone's width and at 1280 px, with
// the keyboard, and no request ever leaving the server's origin. CONSOLE_SCREENSHOTS=dir saves a
// screenshot of each view there (docs/console/ holds the committed ones).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as Verifier } from 'standardwebhooks';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { parseFixtures, startOrchard, type StartedOrchard } from '../../src/testing.js';
import { launchChromium, needsChromium, watchedPage, type Watched } from './browser.js';

const ADMIN_KEY = 'console-test-admin-key-0123456789';
const ADA = '5d0f2c7e-8a4b-4e1f-9c3d-2b6a7e8f9a01';
const SAM = 'sam-sales-token-0001';
const GLOBEX = '11111111-1111-4111-8111-111111111111';
const INITECH = '33333333-3333-4333-8333-333333333333';
const HANK = '22222222-2222-4222-8222-222222222222';

const FIXTURES = {
  organizations: [{
    name: 'Acme',
    plan: 'enterprise',
    limits: { minute: 1000 },
    roles: [{ name: 'sales', grants: { account: ['read', 'update'], contact: ['read'] }, hidden: { account: ['telephone1'] }, readOnly: { account: ['emailaddress1'] } }],
    users: [
      { email: 'ada@acme.example', fullname: 'Ada Lopez', tokens: [ADA] },
      { email: 'sam@acme.example', fullname: 'Sam Sales', role: 'sales', tokens: [SAM] },
    ],
    records: {
      account: [
        { accountid: GLOBEX, accountname: 'Globex', accounttypecode: 1, telephone1: '+1 555 0100', emailaddress1: 'info@globex.example', createdon: '2026-01-02T09:00:00' },
        { accountid: INITECH, accountname: 'Initech', primarycontactid: HANK, createdon: '2026-01-03T09:00:00' },
        ...Array.from({ length: 28 }, (_, i) => ({ accountname: `Account ${String(i + 1).padStart(2, '0')}`, createdon: `2026-01-${String(4 + (i % 20)).padStart(2, '0')}T10:${String(i).padStart(2, '0')}:00` })),
      ],
      contact: [{ contactid: HANK, fullname: 'Hank Scorpio', accountid: GLOBEX }],
    },
  }],
};

const SHOTS = process.env.CONSOLE_SCREENSHOTS;

// The page's globals as the callbacks given to the browser see them (this file compiles without the DOM library).
declare const document: any, location: any, sessionStorage: any, localStorage: any, window: any;
type HTMLElement = any;
const json = async (res: Response): Promise<any> => res.json();

describe('the console in Chromium', { skip: needsChromium }, () => {
  let server: StartedOrchard;
  let browser: Browser;
  let origin: string;
  /** The origins of the suite's servers: the one above, and those a test starts of its own. */
  const origins = new Set<string>();
  /** Every request every page of the suite made, and every script error. */
  const log = { requests: [] as string[], errors: [] as string[] };
  const opened: Watched[] = [];

  before(async () => {
    // Webhooks may target the suite's own receiver on 127.0.0.1.
    const webhooks = { ...loadConfig({}, {}).webhooks, allowPrivate: true };
    server = await startOrchard({ fixtures: FIXTURES, adminKey: ADMIN_KEY, config: { journalSize: 500, webhooks } });
    origin = new URL(server.url).origin;
    origins.add(origin);
    browser = await launchChromium();
  });
  after(async () => {
    for (const w of opened) await w.context.close();
    await browser?.close();
    await server?.close();
  });

  /** A new tab; the earlier ones are closed, so no view of an earlier test keeps reading (and counting). */
  const tab = async (viewport?: { width: number; height: number }, at = origin): Promise<Page> => {
    for (const earlier of opened.splice(0)) await earlier.context.close();
    const w = await watchedPage(browser, at, viewport, log);
    opened.push(w);
    return w.page;
  };
  const api = (token: string, method: string, url: string, body?: unknown) => fetch(`${server.url}${url}`, {
    method, headers: { tokenid: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const shot = async (page: Page, name: string) => {
    if (!SHOTS) return;
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  };

  /** Opens the console and signs in by keyboard alone: the secret field has the focus, Enter sends it. */
  async function signIn(page: Page, secret: string, kind: 'token' | 'admin' = 'token', url = server.url): Promise<void> {
    await page.goto(`${url}/console`);
    await page.waitForSelector('input[name=secret]:focus');
    if (kind === 'admin') {
      // From the secret field back to the radio group, then the arrow picks the admin key.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.isChecked('input[value=admin]'), true);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.type(secret);
    await page.keyboard.press('Enter');
    await page.waitForSelector('header.top');
  }

  /**
   * Under which character of the refused filter (0-based; its length when past the end) the caret
   * of its error stands, as laid out on the screen: the caret's left edge at that character's.
   */
  const caretUnder = (page: Page) => page.evaluate(() => {
    const pre = document.querySelector('.filter-error pre.caret');
    const walker = document.createTreeWalker(pre, 4);
    const texts: any[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node);
    const [line, last] = [texts[0], texts[texts.length - 1]];
    const rectOf = (node: any, i: number) => {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      return range.getBoundingClientRect();
    };
    const caret = rectOf(last, last.data.length - 1).left;
    for (let i = 0; i < line.data.length; i++) if (Math.abs(rectOf(line, i).left - caret) < 1) return i;
    return Math.abs(rectOf(line, line.data.length - 1).right - caret) < 1 ? line.data.length : null;
  });

  const go = async (page: Page, route: string) => {
    await page.evaluate((r) => { location.hash = r; }, `#/${route}`);
  };
  /**
   * On a record's open form, picks as the parent account an id no account has (the search offers the
   * id as typed) and presses `submit`: the server's refusal shows under the form.
   */
  const refusedParent = async (page: Page, submit: 'Create' | 'Save') => {
    await page.fill('#field-parentaccountid', '99999999-9999-4999-8999-999999999999');
    await page.waitForSelector('#field-parentaccountid-options [role=option]');
    await page.press('#field-parentaccountid', 'ArrowDown');
    await page.press('#field-parentaccountid', 'Enter');
    await page.click(`button[type=submit]:has-text("${submit}")`);
    const refusal = page.locator('form.record [role=alert]');
    await refusal.waitFor();
    assert.match((await refusal.textContent())!, /LOOKUP_TARGET_MISSING.*does not exist/);
  };
  const rowsOf = (page: Page) => page.$$eval('table.records tbody tr', (rows) => rows.map((r) => (r.querySelector('td') as HTMLElement).innerText.trim()));

  /** A receiver of webhook deliveries on 127.0.0.1 answering `status()` with `reply`; `next(n)` resolves with the n-th delivery. */
  const webhookReceiver = async (status: () => number = () => 200, reply = '') => {
    const received: Array<{ body: string; headers: Record<string, string> }> = [];
    const waiting: Array<() => void> = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ body, headers: req.headers as Record<string, string> });
        res.writeHead(status(), reply ? { 'content-type': 'text/plain' } : {}).end(reply);
        for (const wake of waiting.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const next = async (count: number) => {
      while (received.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
      return received[count - 1]!;
    };
    return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, received, next, close: () => receiver.close() };
  };

  test('signs in with a token by keyboard alone, refuses a wrong one, and lists the objects with their record counts', async () => {
    const page = await tab();
    await page.goto(`${server.url}/console`);
    await page.waitForSelector('input[name=secret]:focus');
    await page.keyboard.type('00000000-0000-4000-8000-000000000000');
    await page.keyboard.press('Enter');
    const refused = await page.textContent('[role=alert]', { timeout: 20_000 });
    assert.match(refused!, /TOKEN_INVALID/);

    await signIn(page, ADA);
    assert.equal(await page.textContent('header .org-name'), 'Acme');
    assert.equal(await page.textContent('header .badge'), 'role: admin');
    await page.waitForSelector('table[aria-label=Objects]');
    assert.equal(await page.textContent('td[data-object=account]'), '30');
    assert.equal(await page.textContent('td[data-object=contact]'), '1');
    await shot(page, 'data-objects');

    // The keyboard reaches the accounts table: Tab to its link, Enter opens it.
    for (let i = 0; i < 40 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Accounts'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('table.records tbody tr');
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1', 'the new view\'s heading has the focus');
    assert.equal(await page.evaluate(() => sessionStorage.length > 0 && localStorage.length === 0), true, 'kept for the tab only');
  });

  test('a record table pages, sorts, chooses its columns, and filters in the query language with errors at their position and field names suggested', async () => {
    const page = await tab();
    await signIn(page, ADA);
    await go(page, 'data/account');
    await page.waitForSelector('table.records tbody tr');
    assert.equal((await rowsOf(page)).length, 25);
    await page.click('nav.pager >> text=Next');
    await page.waitForFunction(() => document.querySelectorAll('table.records tbody tr').length === 5);
    assert.match((await page.textContent('nav.pager span'))!, /Page 2 of 2/);

    const firstRowIs = (name: string) => page.waitForFunction((n) => document.querySelector('table.records tbody td')?.textContent === n, name);
    await page.click('th >> text=Account Name');
    await page.waitForFunction(() => document.querySelector('table.records th[aria-sort=ascending]'));
    await firstRowIs('Account 01');
    assert.deepEqual((await rowsOf(page)).slice(0, 3), ['Account 01', 'Account 02', 'Account 03']);
    assert.match((await page.textContent('nav.pager span'))!, /Page 1/, 'a new sort starts at page 1');
    await page.click('th >> text=Account Name');
    await page.waitForFunction(() => document.querySelector('table.records th[aria-sort=descending]'));
    await firstRowIs('Initech');
    assert.deepEqual((await rowsOf(page)).slice(0, 2), ['Initech', 'Globex']);

    await page.click('details.columns summary');
    await page.check('details.columns label:has-text("emailaddress1") input');
    await page.waitForSelector('table.records th:has-text("Email")');

    // Suggestions: field names for the word being typed, operators after a field; arrows and Enter take one.
    const filter = page.locator('#filter-input');
    await filter.click();
    await page.keyboard.type('accountna');
    await page.waitForSelector('#filter-suggestions [role=option]');
    assert.deepEqual(await page.$$eval('#filter-suggestions code', (els) => els.map((e) => e.textContent)), ['accountname']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.equal(await filter.inputValue(), 'accountname ');
    await page.keyboard.type('start');
    await page.waitForSelector('#filter-suggestions code:text-is("start-with")');
    assert.deepEqual(await page.$$eval('#filter-suggestions code', (els) => els.map((e) => e.textContent)), ['start-with']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type("'glo'");
    assert.equal(await filter.inputValue(), "accountname start-with 'glo'");
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('table.records tbody tr').length === 1);
    assert.deepEqual(await rowsOf(page), ['Globex']);

    // A syntax error: the server's message, and a caret under the position it names.
    await filter.fill("accountname = 'Globex' AND (");
    await filter.press('Enter');
    const error = page.locator('.filter-error');
    await error.waitFor();
    assert.match((await error.textContent())!, /QUERY_SYNTAX.*position 29/);
    assert.equal(await caretUnder(page), 28);
    assert.equal(await filter.getAttribute('aria-invalid'), 'true');
    await shot(page, 'data-filter-error');

    await filter.fill("acountname = 'Globex'");
    await filter.press('Enter');
    await page.waitForFunction(() => /FIELD_UNKNOWN/.test(document.querySelector('.filter-error')?.textContent ?? ''));
    assert.match((await error.textContent())!, /accountname/, 'the server suggests the field');
    assert.equal(await caretUnder(page), 0);

    // After a Hebrew value (its letters not as wide as the monospaced ones), the caret still stands under the error.
    await filter.fill("accountname = 'חברת שלום בעמ' ANDD statecode = 1");
    await filter.press('Enter');
    await page.waitForFunction(() => /position 31/.test(document.querySelector('.filter-error')?.textContent ?? ''));
    assert.equal(await caretUnder(page), 30, 'under ANDD');

    await page.click('.filter >> text=Clear');
    await page.waitForFunction(() => document.querySelectorAll('table.records tbody tr').length === 25);
    await shot(page, 'data-records');
  });

  test('a record page edits fields by their types and sends only what changed; lookups are links and searches', async () => {
    const page = await tab();
    await signIn(page, ADA);
    await go(page, `data/account/${INITECH}`);
    await page.waitForSelector('form.record');
    const contact = page.locator('[data-field=primarycontactid] a');
    assert.equal(await contact.textContent(), 'Hank Scorpio');
    assert.equal(await contact.getAttribute('href'), `#/data/contact/${HANK}`);

    await page.click('text=Edit');
    await page.selectOption('#field-accounttypecode', { label: 'Partner' });
    await page.fill('#field-pcfsystemfield85', '2026-03-01T10:30:15');
    await page.fill('#field-telephone1', '+1 555 0199');
    assert.equal(await page.getAttribute('#field-pcfsystemfield85', 'type'), 'datetime-local');
    assert.equal(await page.getAttribute('#field-telephone1', 'type'), 'tel');
    assert.equal(await page.isVisible('#field-createdon'), false, 'a system field is not an input');
    const parent = page.locator('#field-parentaccountid');
    await parent.fill('lobe');
    await page.waitForSelector('#field-parentaccountid-options [role=option]:has-text("Globex")');
    await parent.press('ArrowDown');
    await parent.press('Enter');
    assert.equal(await parent.inputValue(), 'Globex');
    await shot(page, 'data-record-edit');

    const put = page.waitForRequest((r) => r.method() === 'PUT');
    await page.click('button[type=submit]:has-text("Save")');
    assert.deepEqual(JSON.parse((await put).postData()!), {
      accounttypecode: 2, pcfsystemfield85: '2026-03-01T10:30:15', telephone1: '+1 555 0199', parentaccountid: GLOBEX,
    });
    await page.waitForSelector('text=Edit');
    assert.equal(await page.textContent('[data-field=accounttypecode] dd'), 'Partner');
    assert.equal(await page.textContent('[data-field=pcfsystemfield85] dd'), '2026-03-01 10:30:15 UTC');
    assert.equal(await page.getAttribute('[data-field=parentaccountid] a', 'href'), `#/data/account/${GLOBEX}`);
    const saved = (await json(await api(ADA, 'GET', `/api/record/account/${INITECH}`))).data.Record;
    assert.deepEqual([saved.accounttypecode, saved.pcfsystemfield85, saved.telephone1, saved.parentaccountid], [2, '2026-03-01T10:30:15', '+1 555 0199', GLOBEX]);

    // The history shows the update first, each field by its label and type, before and after.
    const update = page.locator('.history li[data-operation=update]').first();
    await update.waitFor();
    assert.match((await update.locator('tr[data-changed=accounttypecode]').textContent())!, /Account Type—Partner/);
    assert.match((await update.locator('tr[data-changed=telephone1]').textContent())!, /Main Phone—\+1 555 0199/);
    assert.match((await update.textContent())!, /by Ada Lopez/);
    assert.equal(await page.locator('.history li[data-operation=create]').count(), 1, 'and its creation, last');

    await shot(page, 'data-record');
    // The lookup link opens the contact's page.
    await contact.click();
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Hank Scorpio');
  });

  test('creates a record, shows the server\'s refusal of a bad value, and deletes only on a second press', async () => {
    const page = await tab();
    await signIn(page, ADA);
    await go(page, 'data/account');
    await page.click('text=New account');
    await page.waitForSelector('#field-accountname');
    await page.fill('#field-accountname', 'Vandelay Industries');
    // Required, but filled by the server on create: the new record's form does not ask for them.
    assert.deepEqual([await page.getAttribute('#field-statecode', 'required'), await page.getAttribute('#field-ownerid', 'required')], [null, null]);
    await page.fill('#field-emailaddress1', 'art@vandelay.example');
    await refusedParent(page, 'Create');
    await page.click('[data-field=parentaccountid] button:has-text("clear")');
    await page.click('button[type=submit]:has-text("Create")');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Vandelay Industries');
    const id = decodeURIComponent(page.url().split('/').pop()!);
    assert.equal((await api(ADA, 'GET', `/api/record/account/${id}`)).status, 200);
    await page.click('text=Edit');
    assert.deepEqual([await page.getAttribute('#field-statecode', 'required'), await page.getAttribute('#field-ownerid', 'required')], ['', ''], 'an edit may not clear them');
    assert.equal(await page.locator('[data-field=ownerid] button:has-text("clear")').count(), 0, 'no clear for the owner');
    await page.click('form.record button:has-text("Cancel")');

    await page.click('button:has-text("Delete")');
    assert.equal((await api(ADA, 'GET', `/api/record/account/${id}`)).status, 200, 'one press deletes nothing');
    await page.click('text=Delete for good');
    await page.waitForSelector('table.records');
    assert.equal((await api(ADA, 'GET', `/api/record/account/${id}`)).status, 404);
  });

  test('a token\'s role limits the view: hidden fields absent, read-only ones not editable, no create or delete', async () => {
    const page = await tab();
    await signIn(page, SAM);
    assert.equal(await page.textContent('header .badge'), 'role: sales');
    await page.waitForSelector('table[aria-label=Objects]');
    assert.equal(await page.textContent('td[data-object=lead]'), '—', 'no count where it may not read');
    await go(page, `data/account/${GLOBEX}`);
    await page.waitForSelector('form.record');
    assert.equal(await page.locator('[data-field=telephone1]').count(), 0, 'hidden');
    assert.equal(await page.locator('button:has-text("Delete")').count(), 0);
    await page.click('text=Edit');
    assert.equal(await page.locator('#field-emailaddress1').count(), 0, 'read-only for the role: shown as text');
    assert.equal(await page.textContent('[data-field=emailaddress1] dd'), 'info@globex.example');
    assert.equal(await page.locator('#field-accountname').count(), 1);
    await go(page, 'data/account');
    await page.waitForSelector('table.records');
    assert.equal(await page.locator('text=New account').count(), 0);
    assert.equal(await page.locator('nav.tabs >> text=Webhooks').count(), 0, 'webhooks are the admin role\'s');
  });

  test('webhooks: made with the secret shown once; the delivery log shows a write delivered to the receiver, live', async () => {
    const receiver = await webhookReceiver(() => 200, 'thanks');
    const received = receiver.received;
    try {
      const url = receiver.url;
      const page = await tab();
      await signIn(page, ADA);
      await page.click('nav.tabs >> text=Webhooks');
      await page.waitForSelector('form[aria-label="Make a webhook"]');
      await page.selectOption('label:has-text("Event") select', 'updated');
      await page.selectOption('label:has-text("Object") select', 'account');
      await page.fill('label:has-text("URL") input', url);
      await page.fill('label:has-text("Filter") input', "accountname = 'Globex'");
      await page.click('button:has-text("Make webhook")');
      assert.match((await page.textContent('.once [data-token]'))!, /^whsec_/);
      await page.click(`tr[data-webhook="${url}"] a:has-text("Deliveries")`);
      await page.waitForSelector('text=No delivery yet');

      assert.equal((await api(ADA, 'PUT', `/api/record/account/${GLOBEX}`, { telephone2: '+1 555 0111' })).status, 200);
      await page.waitForSelector('table[aria-label="Deliveries, newest first"] tr[data-state=delivered]', { timeout: 15_000 });
      assert.match((await page.textContent('tr[data-state=delivered]'))!, /updated account.*200/);
      assert.equal(received.length, 1);
      assert.equal(JSON.parse(received[0]!.body).data.record.telephone2, '+1 555 0111');
      await page.click('tr[data-state=delivered] button:has-text("reply")');
      assert.equal(await page.textContent('tr[data-state=delivered] pre.body'), 'thanks');
      await shot(page, 'webhooks');
      // A test event shows in the log as one, of no record.
      const [made] = (await json(await api(ADA, 'GET', '/api/webhooks'))).data;
      assert.equal((await api(ADA, 'POST', `/api/webhooks/${made.id}/test`)).status, 202);
      await page.waitForSelector('tr[data-state=delivered]:has-text("test event")', { timeout: 15_000 });
      assert.equal(await page.locator('tr:has-text("test event") a').count(), 0, 'no link to a record');
      assert.equal(received.length, 2);
      assert.equal(JSON.parse(received[1]!.body).type, 'webhook.test');

      // Deleted: gone from the list and from the API, and the next write is delivered to nobody.
      await page.click('text=Back to the webhooks');
      await page.click(`tr[data-webhook="${url}"] button:has-text("Delete")`);
      assert.equal((await json(await api(ADA, 'GET', '/api/webhooks'))).data.length, 1, 'one press deletes nothing');
      await page.click(`tr[data-webhook="${url}"] button:has-text("Delete for good")`);
      await page.waitForSelector('text=No webhook yet.');
      assert.deepEqual((await json(await api(ADA, 'GET', '/api/webhooks'))).data, []);
      assert.equal((await api(ADA, 'PUT', `/api/record/account/${GLOBEX}`, { telephone2: '+1 555 0112' })).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(received.length, 2, 'nothing after the delete');
    } finally {
      receiver.close();
    }
  });

  test('the usage view moves with each request made, live, and its own reads count nothing', async () => {
    const page = await tab();
    await signIn(page, ADA);
    await go(page, 'usage');
    await page.waitForSelector('[data-window=minute] [data-used]');
    await new Promise((resolve) => setTimeout(resolve, 2500)); // a read of its own has come and gone
    const used = async () => Number((await page.textContent('[data-window=minute] [data-used]'))!.replace(/,/g, ''));
    const day = async () => Number((await page.textContent('[data-window=day] [data-used]'))!.replace(/,/g, ''));
    const [minute0, day0] = [await used(), await day()];
    for (let i = 0; i < 7; i++) assert.equal((await api(ADA, 'GET', '/api/record/account?pagesize=1')).status, 200);
    await page.waitForFunction((n) => document.querySelector('[data-window=minute] [data-used]')?.textContent === String(n), minute0 + 7, { timeout: 10_000 });
    assert.equal(await day(), day0 + 7);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal(await used(), minute0 + 7, 'the view\'s reads every 2 s were not counted');
    assert.equal(await page.getAttribute('[data-window=minute] [role=meter]', 'aria-valuenow'), String(minute0 + 7));
    assert.equal(await page.locator('.chart rect.day').count(), 30);
    await shot(page, 'usage');
  });

  test('with the admin key: the request journal live with its detail, the toolkit\'s controls, tokens shown once, revoked and rotated', async () => {
    const page = await tab();
    await signIn(page, ADMIN_KEY, 'admin');
    assert.equal(await page.textContent('header .badge'), 'admin key');

    // Requests: a request made elsewhere appears without a reload, and opens to its headers and bodies.
    await go(page, 'requests');
    await page.waitForSelector('table.requests');
    assert.equal((await api(ADA, 'GET', '/api/record/account?pagesize=2&marker=journal')).status, 200);
    assert.equal((await api(ADA, 'POST', '/api/query', { objecttype: 'account', query: 'nofield = 1' })).status, 400);
    const row = page.locator('table.requests a[aria-label^="POST /api/query, 400"]').first();
    await row.waitFor({ timeout: 10_000 });
    await page.fill('label:has-text("Status") input', '4xx');
    await page.waitForFunction(() => [...document.querySelectorAll('table.requests tbody td:nth-child(4)')].every((td) => td.textContent?.startsWith('4')));
    await row.click();
    const detail = page.locator('article.detail');
    await detail.waitFor();
    assert.match((await detail.textContent())!, /tokenid\*{4}9a01/, 'the token masked');
    assert.match((await detail.locator('pre.body').nth(0).textContent())!, /"query": "nofield = 1"/);
    assert.match((await detail.locator('pre.body').nth(1).textContent())!, /Invalid field name: 'nofield'/);
    await shot(page, 'requests');

    // Toolkit: the clock moves by 25 h, a fault rule fires once, a snapshot is taken and restored.
    await go(page, 'toolkit');
    const now = page.locator('[data-clock-now]');
    await now.waitFor();
    const before = Date.parse((await now.textContent())!.replace(' UTC', 'Z').replace(' ', 'T'));
    await page.fill('label:has-text("Advance by") input', '25h');
    await page.click('button:has-text("Advance")');
    await page.waitForFunction((t) => Date.parse(document.querySelector('[data-clock-now]')!.textContent!.replace(' UTC', 'Z').replace(' ', 'T')) - t > 24 * 3600_000, before);
    await page.click('button:has-text("Real time")');
    await page.waitForFunction(() => !document.querySelector('.panel .badge')?.textContent?.includes('moved'));
    // Set (back in time: a later instant would stay counted in the limits' windows) runs on from there,
    // and what is written takes its time; Freeze stops it.
    await page.fill('label:has-text("Set to") input', '2026-01-15T08:00:00');
    await page.click('button:has-text("Set")');
    await page.waitForFunction(() => document.querySelector('[data-clock-now]')?.textContent?.startsWith('2026-01-15 08:00'));
    const written = await json(await api(ADA, 'POST', '/api/record/account', { accountname: 'Written in January' }));
    assert.match((await json(await api(ADA, 'GET', `/api/record/account/${written.data.Record.accountid}`))).data.Record.createdon, /^2026-01-15T08:0/);
    await page.click('button:has-text("Freeze")');
    await page.waitForSelector('.panel .badge:text-is("frozen")');
    const frozenAt = await now.textContent();
    await new Promise((resolve) => setTimeout(resolve, 2200));
    assert.equal(await now.textContent(), frozenAt, 'a frozen clock stands still');
    await page.click('button:has-text("Real time")');
    await page.waitForFunction(() => !/moved|frozen/.test(document.querySelector('.panel .badge')?.textContent ?? ''));
    assert.ok(Date.parse((await now.textContent())!.replace(' UTC', 'Z').replace(' ', 'T')) >= before);

    // A fault rule with no end: contacts refused until it is removed.
    await page.selectOption('label:has-text("Reply") select', '429');
    await page.fill('label:has-text("Object") input', 'contact');
    await page.click('button:has-text("Add rule")');
    await page.waitForSelector('table[aria-label="Fault rules"] tbody tr');
    assert.equal((await api(ADA, 'GET', `/api/record/contact/${HANK}`)).status, 429);
    await page.click('table[aria-label="Fault rules"] tbody tr button:has-text("Remove")');
    await page.waitForSelector('text=No fault rule.');
    assert.equal((await api(ADA, 'GET', `/api/record/contact/${HANK}`)).status, 200);

    await page.selectOption('label:has-text("Reply") select', '503');
    await page.fill('label:has-text("Object") input', '');
    await page.selectOption('label:has-text("Routes") select', 'records');
    await page.fill('label:has-text("Times") input', '1');
    await page.click('button:has-text("Add rule")');
    await page.waitForSelector('table[aria-label="Fault rules"] tbody tr');
    assert.equal((await api(ADA, 'GET', '/api/record/account?pagesize=1')).status, 503);
    assert.equal((await api(ADA, 'GET', '/api/record/account?pagesize=1')).status, 200, 'the rule fired once');

    await page.fill('label:has-text("Snapshot name") input', 'before-demo');
    await page.click('button:has-text("Take snapshot")');
    await page.waitForSelector('table[aria-label=Snapshots] >> text=before-demo');
    const made = await json(await api(ADA, 'POST', '/api/record/account', { accountname: 'Temporary' }));
    // Restoring replaces the data: a second press, focused on keeping it (Enter after a stray press keeps it).
    await page.click('table[aria-label=Snapshots] button:has-text("Restore")');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Keep the data');
    await page.keyboard.press('Enter');
    await page.waitForSelector('table[aria-label=Snapshots] button:has-text("Restore")');
    assert.equal((await api(ADA, 'GET', `/api/record/account/${made.data.Record.accountid}`)).status, 200, 'one press restores nothing');
    await page.click('table[aria-label=Snapshots] button:has-text("Restore")');
    await page.click('button:has-text("Replace the data with before-demo")');
    await page.waitForSelector('text=Snapshot before-demo restored.');
    assert.equal((await api(ADA, 'GET', `/api/record/account/${made.data.Record.accountid}`)).status, 404);
    const acme = (await json(await api(ADA, 'GET', '/api/me'))).data.organization.id as string;
    const snapshotNames = async () => ((await json(await fetch(`${server.url}/_orchard/organizations/${acme}/snapshots`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }))).items as Array<{ name: string }>).map((x) => x.name);
    await shot(page, 'toolkit');
    await page.click('table[aria-label=Snapshots] button:has-text("Delete")');
    await page.click('button:has-text("Keep")');
    assert.deepEqual(await snapshotNames(), ['before-demo'], 'kept');
    await page.click('table[aria-label=Snapshots] button:has-text("Delete")');
    await page.click('button:has-text("Delete before-demo for good")');
    await page.waitForSelector('text=Snapshot before-demo deleted.');
    assert.deepEqual(await snapshotNames(), []);

    // "Clear all data", after a second press: the organization goes back to its fixture (an edit undone).
    assert.equal((await api(ADA, 'PUT', `/api/record/account/${INITECH}`, { telephone1: '+1 555 0142' })).status, 200);
    await page.click('button:has-text("Clear all data…")');
    await page.click('button:has-text("Reset Acme")');
    await page.waitForSelector('text=The organization was reset.');
    assert.equal((await json(await api(ADA, 'GET', `/api/record/account/${INITECH}`))).data.Record.telephone1, null);

    // Admin: a new token shown once works, then is refused once revoked; rotate replaces one; the minute limit changes.
    await go(page, 'admin');
    await page.click('tr[data-user="ada@acme.example"] button:has-text("Tokens")');
    await page.click('button:has-text("New token")');
    const fresh = (await page.textContent('.once [data-token]'))!;
    assert.equal((await api(fresh, 'GET', '/api/me')).status, 200);
    await page.click(`button[aria-label="Revoke token …${fresh.slice(-4)}"]`);
    assert.equal((await api(fresh, 'GET', '/api/me')).status, 200, 'one press revokes nothing');
    await page.click(`button:has-text("Revoke …${fresh.slice(-4)} for good")`);
    await page.waitForSelector(`tr[data-last4="${fresh.slice(-4)}"] >> text=revoked`);
    assert.equal((await api(fresh, 'GET', '/api/me')).status, 401);
    assert.equal(await page.locator('.once [data-token]').count(), 0, 'shown once, then gone');

    await page.click('button:has-text("New token")');
    const second = (await page.textContent('.once [data-token]'))!;
    await page.click(`tr[data-last4="${second.slice(-4)}"] button:has-text("Rotate")`);
    await page.waitForFunction((old) => document.querySelector('.once [data-token]')?.textContent !== old, second);
    const rotated = (await page.textContent('.once [data-token]'))!;
    assert.equal((await api(rotated, 'GET', '/api/me')).status, 200);
    assert.equal((await api(second, 'GET', '/api/me')).status, 401, 'the rotated token was revoked');

    await page.fill('label:has-text("Requests a minute") input', '777');
    await page.click('#plan-title ~ form button:has-text("Save")');
    await page.waitForSelector('text=Saved: applied from the next request.');
    assert.equal((await json(await api(rotated, 'GET', '/api/me'))).data.organization.minuteLimit, 777);

    await page.fill('label:has-text("Role name") input', 'support');
    await page.fill('label:has-text("Grants") input', 'contact:read,update');
    await page.click('button:has-text("Save role")');
    await page.waitForSelector('table[aria-label=Roles] th:has-text("support")');
    await shot(page, 'admin');

    // Signing out revokes the token the console made to open the data.
    await go(page, 'data');
    await page.waitForSelector('table[aria-label=Objects]');
    const dataToken: string = await page.evaluate(() => (Object.values(JSON.parse(sessionStorage.getItem('orchard-console-session')).dataTokens)[0] as { token: string }).token);
    assert.equal((await api(dataToken, 'GET', '/api/me')).status, 200);
    await page.click('text=Sign out');
    await page.waitForSelector('input[name=secret]');
    assert.equal((await api(dataToken, 'GET', '/api/me')).status, 401);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('orchard-console-session')), null);
  });

  test('with the admin key: an organization made, its plan and minute limit changed in Admin take effect — the usage shows the new quotas, a 429 comes at each — the notices sent at 90 % and 100 % are listed, and the 30-day chart keeps the day\'s count when the clock moves on', async () => {
    const page = await tab();
    await signIn(page, ADMIN_KEY, 'admin');
    await go(page, 'orgs');
    const create = page.locator('form[aria-label="Create an organization"]');
    await create.waitFor();
    await create.locator('label:has-text("Name") input').fill('Umbrella');
    await create.locator('input[type=email]').fill('alice@umbrella.example');
    await create.locator('select').selectOption('standard');
    await create.locator('button:has-text("Create")').click();
    const token = (await page.textContent('.once [data-token]'))!;
    await page.waitForFunction(() => document.querySelector('header select')?.selectedOptions[0]?.textContent === 'Umbrella');
    assert.match((await page.textContent('table[aria-label=Organizations] tr.selected'))!, /Umbrella.*standard100/);
    const call = () => api(token, 'GET', '/api/record/account?pagesize=1');

    // Admin: the free plan (500 a day) and 5 requests a minute.
    await go(page, 'admin');
    const planForm = page.locator('#plan-title ~ form');
    await planForm.locator('select').selectOption('free');
    await planForm.locator('input[type=number]').fill('5');
    await planForm.locator('button:has-text("Save")').click();
    await page.waitForSelector('text=Saved: applied from the next request.');

    // Usage: the new quotas at once; the sixth request of the minute is refused, and the meter is full.
    await go(page, 'usage');
    await page.waitForFunction(() => /^0 of 5$/.test(document.querySelector('[data-window=minute] .meter-head span:last-child')?.textContent ?? ''));
    assert.match((await page.textContent('[data-window=day] .meter-head'))!, /0 of 500$/);
    assert.match((await page.textContent('main p.muted'))!, /Umbrella · plan free/);
    for (let i = 0; i < 5; i++) assert.equal((await call()).status, 200);
    const minuteFull = await call();
    assert.equal(minuteFull.status, 429);
    assert.match(minuteFull.headers.get('ratelimit-policy')!, /"minute";q=5;w=60, "day";q=500;w=86400/);
    assert.match((await json(minuteFull)).Message, /may make 5 requests in any 60 seconds/);
    await page.waitForFunction(() => document.querySelector('[data-window=minute] [data-used]')?.textContent === '5');
    assert.equal(await page.getAttribute('[data-window=minute]', 'class'), 'meter full');
    assert.equal(await page.locator('table[aria-label="Usage notices"]').count(), 0);

    // Admin again: the form shows what was saved; a minute limit of 1000 lets the day's cap be reached.
    await go(page, 'admin');
    assert.equal(await planForm.locator('select').inputValue(), 'free');
    assert.equal(await planForm.locator('input[type=number]').inputValue(), '5');
    await planForm.locator('input[type=number]').fill('1000');
    await planForm.locator('button:has-text("Save")').click();
    await page.waitForSelector('text=Saved: applied from the next request.');
    for (let i = 5; i < 500; i++) assert.equal((await call()).status, 200, `request ${i + 1} of the day`);
    const dayFull = await call();
    assert.equal(dayFull.status, 429);
    assert.match((await json(dayFull)).Message, /may make 500 requests per UTC day/);

    // Usage: the day full, today's bar at the cap, and both notices sent (by e-mail: the outbox holds them).
    await go(page, 'usage');
    await page.waitForFunction(() => {
      const sent = [...document.querySelectorAll('table[aria-label="Usage notices"] tbody tr td:nth-child(4)')];
      return sent.length === 2 && sent.every((td) => !/not yet/.test(td.textContent ?? ''));
    }, undefined, { timeout: 15_000 });
    assert.match((await page.textContent('tr[data-threshold="100"]'))!, /100 %500 \/ 500\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    assert.match((await page.textContent('tr[data-threshold="90"]'))!, /90 %450 \/ 500\d{4}-\d\d-\d\d/);
    const today = (await page.getAttribute('tr[data-threshold="100"]', 'data-day'))!;
    assert.match((await page.textContent('[data-window=day] .meter-head'))!, /500 of 500$/);
    assert.equal(await page.getAttribute('[data-window=day]', 'class'), 'meter full');
    const bars = () => page.$$eval('.chart rect.day', (rects) => rects.map((r) => [r.getAttribute('data-day'), r.getAttribute('data-count'), r.getAttribute('class')]));
    assert.deepEqual((await bars()).at(-1), [today, '500', 'day full']);
    const mails = fs.readdirSync(path.join(server.dataDir, 'outbox')).map((f) => fs.readFileSync(path.join(server.dataDir, 'outbox', f), 'utf8'))
      .filter((m) => m.includes('alice@umbrella.example'));
    assert.equal(mails.length, 2, 'one e-mail per threshold');
    await shot(page, 'usage-notices');

    // Toolkit: the organization's clock a day on. The day starts empty; yesterday's 500 stay in the chart, and its notices in the list.
    await go(page, 'toolkit');
    await page.fill('label:has-text("Advance by") input', '1d');
    await page.click('button:has-text("Advance")');
    await page.waitForSelector('.panel .badge:text-is("moved")');
    assert.equal((await call()).status, 200, 'the cap is the new day\'s');
    await go(page, 'usage');
    await page.waitForFunction(() => document.querySelector('[data-window=day] [data-used]')?.textContent === '1');
    const days = await bars();
    assert.equal(days.length, 30);
    assert.deepEqual(days.at(-2), [today, '500', 'day full']);
    assert.equal(days.at(-1)![1], '1');
    assert.ok(days.at(-1)![0]! > today);
    assert.equal(await page.locator('table[aria-label="Usage notices"] tbody tr').count(), 2);
    await go(page, 'toolkit');
    await page.click('button:has-text("Real time")');
    await page.waitForFunction(() => !document.querySelector('.panel .badge')?.textContent?.includes('moved'));
  });

  test('with the admin key: a role defined and edited, a user added with it, given another role, disabled, enabled and deleted, each taking effect on the user\'s token', async () => {
    const page = await tab();
    await signIn(page, ADMIN_KEY, 'admin');
    await page.selectOption('header select', { label: 'Acme' });
    await go(page, 'admin');

    const roleForm = page.locator('form[aria-label="Define a role"]');
    await roleForm.waitFor();
    await roleForm.locator('label:has-text("Role name") input').fill('helpdesk');
    await roleForm.locator('label:has-text("Grants") input').fill('contact:read');
    await roleForm.locator('label:has-text("Hidden fields") input').fill('contact:telephone1');
    await roleForm.locator('button:has-text("Save role")').click();
    const roleRow = page.locator('table[aria-label=Roles] tr:has(th:text-is("helpdesk"))');
    await roleRow.waitFor();
    assert.equal((await roleRow.locator('td').first().textContent()), 'contact: read; hidden telephone1');

    const addUser = page.locator('form[aria-label="Add a user"]');
    await addUser.locator('input[type=email]').fill('hal@acme.example');
    await addUser.locator('select').selectOption('helpdesk');
    await addUser.locator('button:has-text("Add user")').click();
    const hal = (await page.textContent('#users-title ~ .once [data-token]'))!;
    const me = async () => (await json(await api(hal, 'GET', '/api/me'))).data.user.role;
    assert.equal(await me(), 'helpdesk');
    assert.equal((await api(hal, 'PUT', `/api/record/contact/${HANK}`, { jobtitle: 'Villain' })).status, 403, 'read only');
    assert.equal((await json(await api(hal, 'GET', `/api/record/contact/${HANK}`))).data.Record.telephone1, undefined, 'hidden');

    // Edit: the form takes the role as it is; update added to its grant.
    await roleRow.locator('button:has-text("Edit")').click();
    assert.equal(await roleForm.locator('label:has-text("Grants") input').inputValue(), 'contact:read');
    await roleForm.locator('label:has-text("Grants") input').fill('contact:read,update');
    await roleForm.locator('button:has-text("Save role")').click();
    await page.waitForFunction(() => [...document.querySelectorAll('table[aria-label=Roles] tr')].some((tr) => tr.querySelector('th')?.textContent === 'helpdesk' && tr.querySelector('td')?.textContent === 'contact: read, update; hidden telephone1'));
    assert.equal((await api(hal, 'PUT', `/api/record/contact/${HANK}`, { jobtitle: 'Villain' })).status, 200);

    // A role a user holds is not deleted: the refusal names the user, and the role stays.
    await roleRow.locator('button:has-text("Delete")').click();
    await roleRow.locator('button:has-text("Delete role helpdesk for good")').click();
    const refusal = page.locator('#roles-title ~ .error[role=alert]');
    await refusal.waitFor();
    assert.match((await refusal.textContent())!, /ROLE_IN_USE.*held by 1 user\(s\): hal@acme\.example/);
    assert.equal(await me(), 'helpdesk');
    assert.equal(await roleRow.count(), 1);

    const row = page.locator('tr[data-user="hal@acme.example"]');
    const sent: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/_orchard/')) sent.push(`${r.method()} ${new URL(r.url()).pathname} ${r.postData() ?? ''}`); });
    const patched = page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/_orchard\/users\//.test(r.url()));
    await row.locator('select').selectOption('sales');
    await row.locator('button:has-text("Change role")').click();
    assert.deepEqual(JSON.parse((await patched).request().postData()!), { role: 'sales' });
    assert.equal((await patched).status(), 200);
    assert.equal(await me(), 'sales', `the console's calls: ${sent.join('; ')}`);
    assert.equal(await row.locator('select').inputValue(), 'sales');

    await row.locator('button:has-text("Disable")').click();
    await row.locator('td:has-text("disabled since")').waitFor();
    assert.equal((await api(hal, 'GET', '/api/me')).status, 401);
    await row.locator('button:has-text("Enable")').click();
    await row.locator('td:text-is("enabled")').waitFor();
    assert.equal((await api(hal, 'GET', '/api/me')).status, 200);

    // Deleting asks a second press: it revokes every token of the user.
    await row.locator('button:has-text("Delete")').click();
    assert.equal((await api(hal, 'GET', '/api/me')).status, 200, 'one press deletes nothing');
    await row.locator('button:has-text("Delete hal@acme.example for good")').click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await api(hal, 'GET', '/api/me')).status, 401);

    // No one holds helpdesk now: it goes, after a second press.
    await roleRow.locator('button[aria-label="Delete role helpdesk"]').click();
    await roleRow.locator('button:has-text("Delete role helpdesk for good")').click();
    await roleRow.waitFor({ state: 'detached' });
    assert.equal(await refusal.count(), 0, 'the earlier refusal is cleared');
    const acme = (await json(await api(ADA, 'GET', '/api/me'))).data.organization.id as string;
    const roles = await json(await fetch(`${server.url}/_orchard/organizations/${acme}/roles`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }));
    assert.ok(!roles.items.some((r: { name: string }) => r.name === 'helpdesk'));
  });

  test('by keyboard alone: "Skip to content" first, a column sorted, a record opened, edited and saved', async () => {
    const page = await tab();
    await signIn(page, ADA);
    await go(page, 'data/account');
    await page.waitForSelector('table.records tbody tr');
    const focused = () => page.evaluate(() => {
      const el = document.activeElement;
      return { tag: el?.tagName, id: el?.id, text: el?.textContent?.trim(), left: el?.getBoundingClientRect().left };
    });
    /** Tabs until the focused element satisfies `is`, as a keyboard user would. */
    const tabTo = async (is: (f: Awaited<ReturnType<typeof focused>>) => boolean, what: string) => {
      for (let i = 0; i < 80; i++) {
        if (is(await focused())) return;
        await page.keyboard.press('Tab');
      }
      assert.fail(`Tab never reached ${what}`);
    };

    // The first stop of a loaded page is the skip link, shown once it has the focus; Enter moves to the content.
    await page.reload();
    await page.waitForSelector('table.records tbody tr');
    await page.keyboard.press('Tab');
    const skip = await focused();
    assert.equal(skip.text, 'Skip to content');
    assert.ok(skip.left! >= 0, 'visible when focused');
    await page.keyboard.press('Enter');
    assert.equal((await focused()).id, 'main');

    await tabTo((f) => f.tag === 'BUTTON' && f.text === 'Account Name', 'the Account Name column');
    await page.keyboard.press('Enter');
    await page.waitForSelector('table.records th[aria-sort=ascending]');
    await page.waitForFunction(() => document.querySelector('table.records tbody td')?.textContent === 'Account 01');

    await tabTo((f) => f.tag === 'A' && f.text === 'Account 01', 'the first record');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Account 01');
    await page.waitForSelector('form.record');
    await tabTo((f) => f.tag === 'BUTTON' && f.text === 'Edit', 'Edit');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#field-telephone2');
    await tabTo((f) => f.id === 'field-telephone2', 'the Other Phone field');
    await page.keyboard.type('+1 555 0177');
    const put = page.waitForRequest((r) => r.method() === 'PUT');
    await page.keyboard.press('Enter');
    const id = decodeURIComponent(new URL((await put).url()).pathname.split('/').pop()!);
    await page.waitForSelector('button:has-text("Edit")');
    assert.equal((await json(await api(ADA, 'GET', `/api/record/account/${id}`))).data.Record.telephone2, '+1 555 0177');
  });

  test('every view fits a phone\'s width and 1280 px without scrolling sideways', async () => {
    const routes = ['orgs', 'data', 'data/account', `data/account/${GLOBEX}`, 'usage', 'webhooks', 'requests', 'toolkit', 'admin'];
    for (const viewport of [{ width: 375, height: 740 }, { width: 1280, height: 800 }]) {
      const page = await tab(viewport);
      await signIn(page, ADMIN_KEY, 'admin');
      for (const route of routes) {
        await go(page, route);
        await page.waitForSelector('main h1');
        await page.waitForLoadState('networkidle');
        const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        assert.ok(scroll <= width, `${route} at ${viewport.width} px is ${scroll} px wide`);
        if (viewport.width < 500 && (route === 'data/account' || route === 'usage')) await shot(page, `phone-${route.replace('/', '-')}`);
      }
    }
    const page = await tab();
    await page.goto(`${server.url}/console`);
    await shot(page, 'sign-in');
  });

  const control = (method: string, url: string, body?: unknown) => fetch(`${server.url}/_orchard${url}`, {
    method, headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const acmeId = async () => (await json(await api(ADA, 'GET', '/api/me'))).data.organization.id as string;
  /** A user of Acme as the control API lists them. */
  const userOfAcme = async (email: string): Promise<{ id: string; email: string; role: string }> =>
    ((await json(await control('GET', `/organizations/${await acmeId()}/users`))).items as Array<{ id: string; email: string; role: string }>).find((u) => u.email === email)!;
  /** A new tab signed in with Ada's token, on the accounts' table. */
  const accountsTable = async (): Promise<Page> => {
    const page = await tab();
    await signIn(page, ADA);
    await go(page, 'data/account');
    await page.waitForSelector('table.records tbody tr');
    return page;
  };
  /** A new tab signed in with Ada's token, on Globex's page with `phone` typed as its other phone and not saved. */
  const editedGlobex = async (phone: string): Promise<Page> => {
    const page = await tab();
    await signIn(page, ADA);
    await go(page, `data/account/${GLOBEX}`);
    await page.click('text=Edit');
    await page.fill('#field-telephone2', phone);
    return page;
  };
  /** Answers the page's next question (a confirm) yes or no; what it asked is pushed to the list returned. */
  const answerNext = (page: Page, yes: boolean): string[] => {
    const asked: string[] = [];
    page.once('dialog', (d) => { asked.push(d.message()); void (yes ? d.accept() : d.dismiss()); });
    return asked;
  };
  /** Signs in with the admin key and opens Acme's `route`. */
  const adminOfAcme = async (page: Page, route: string) => {
    await signIn(page, ADMIN_KEY, 'admin');
    await page.selectOption('header select', { label: 'Acme' });
    await go(page, route);
  };
  /** Signs in with the admin key and opens Acme's tokens of `email` under Admin. */
  const adminTokensOf = async (page: Page, email: string) => {
    await adminOfAcme(page, 'admin');
    await page.click(`tr[data-user="${email}"] button:has-text("Tokens")`);
    await page.waitForSelector(`[role=region][aria-label="Tokens of ${email}"] table`);
  };

  test('revoking the console\'s own data token under Admin (labelled as the console\'s) leaves the data working: a new token is made and the call retried', async () => {
    const page = await tab();
    await adminOfAcme(page, 'data');
    await page.waitForSelector('table[aria-label=Objects]');
    const tokenIds = () => page.evaluate(() => Object.values(JSON.parse(sessionStorage.getItem('orchard-console-session')).dataTokens).map((t: any) => t.tokenId as string));
    const [made] = await tokenIds();
    await go(page, 'admin');
    await page.click('tr[data-user="ada@acme.example"] button:has-text("Tokens")');
    const row = page.locator(`tr[data-token-id="${made}"]`);
    await row.waitFor();
    assert.match((await row.textContent())!, /used by this console/);
    await row.locator('button:has-text("Revoke")').click();
    await row.locator('button:has-text("for good")').click();
    await row.locator('text=revoked').waitFor();
    await go(page, 'data');
    await page.waitForSelector('table[aria-label=Objects]');
    assert.equal(await page.locator('text=TOKEN_INVALID').count(), 0);
    const [now] = await tokenIds();
    assert.notEqual(now, made, 'a new token replaces the revoked one');

    // A refused read shows its error only, not "Loading" beside it.
    await page.route('**/api/objects', (route) => route.fulfill({ status: 503, contentType: 'application/json', headers: { 'x-error-code': 'FAULT_INJECTED' }, body: JSON.stringify({ Message: 'down for the test' }) }));
    await go(page, 'usage');
    await go(page, 'data');
    await page.waitForSelector('main [role=alert]:has-text("down for the test")');
    assert.equal(await page.locator('text=Loading objects').count(), 0);
  });

  test('a token shown once stays shown when another token is revoked, and goes when it is itself revoked', async () => {
    const page = await tab();
    await adminTokensOf(page, 'sam@acme.example');
    const shown = () => page.textContent('.once [data-token]');
    await page.click('button:has-text("New token")');
    const first = (await shown())!;
    await page.click('button:has-text("New token")');
    await page.waitForFunction((old) => document.querySelector('.once [data-token]')?.textContent !== old, first);
    const second = (await shown())!;
    const revoke = async (token: string) => {
      await page.click(`button[aria-label="Revoke token …${token.slice(-4)}"]`);
      await page.click(`button:has-text("Revoke …${token.slice(-4)} for good")`);
      await page.waitForSelector(`tr[data-last4="${token.slice(-4)}"] >> text=revoked`);
    };
    await revoke(first);
    assert.equal(await shown(), second, 'still shown: another token was revoked');
    await revoke(second);
    assert.equal(await page.locator('.once [data-token]').count(), 0, 'gone once it is revoked');
  });

  test('a user\'s role changes only when "Change role" is pressed, not as the arrow keys move through the choices', async () => {
    const page = await tab();
    await adminOfAcme(page, 'admin');
    const row = page.locator('tr[data-user="sam@acme.example"]');
    const patches: string[] = [];
    page.on('request', (r) => { if (r.method() === 'PATCH') patches.push(r.postData() ?? ''); });
    const role = async () => (await json(await api(SAM, 'GET', '/api/me'))).data.user.role;
    await row.locator('select').focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(patches, [], 'moving through the roles changes nothing');
    assert.equal(await role(), 'sales');
    /** Chooses a role and gives it, then waits for the list read again (the button gone). */
    const change = async (to: string) => {
      await row.locator('select').selectOption(to);
      const patched = page.waitForResponse((r) => r.request().method() === 'PATCH');
      await row.locator('button:has-text("Change role")').click();
      assert.deepEqual(JSON.parse((await patched).request().postData()!), { role: to });
      await row.locator('button.change-role').waitFor({ state: 'detached' });
      assert.equal(await role(), to);
    };
    await change('admin');
    await change('sales');
  });

  test('a token session follows a change of its role and plan made elsewhere once it moves to another view', async () => {
    const page = await tab();
    await signIn(page, SAM);
    assert.equal(await page.textContent('header .badge'), 'role: sales');
    const acme = await acmeId();
    const sam = await userOfAcme('sam@acme.example');
    assert.equal((await control('PATCH', `/users/${sam.id}`, { role: 'admin' })).status, 200);
    assert.equal((await control('PATCH', `/organizations/${acme}`, { plan: 'professional' })).status, 200);
    try {
      await go(page, 'usage');
      await page.waitForFunction(() => document.querySelector('header .badge')?.textContent === 'role: admin');
      await page.locator('nav.tabs >> text=Webhooks').waitFor();
      await page.waitForFunction(() => /plan professional/.test(document.querySelector('main p.muted')?.textContent ?? ''));
    } finally {
      await control('PATCH', `/users/${sam.id}`, { role: 'sales' });
      await control('PATCH', `/organizations/${acme}`, { plan: 'enterprise' });
    }
  });

  test('a record table keeps its filter, sort and page after a record is opened and the browser goes back', async () => {
    const page = await accountsTable();
    const filter = page.locator('#filter-input');
    await filter.fill("accountname start-with 'Account'");
    await filter.press('Enter');
    await page.click('th >> text=Account Name');
    await page.waitForFunction(() => document.querySelector('table.records tbody td')?.textContent === 'Account 01');
    await page.click('nav.pager >> text=Next');
    await page.waitForFunction(() => document.querySelector('table.records tbody td')?.textContent === 'Account 26');
    await page.click('table.records a:has(bdi:text-is("Account 26"))');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Account 26');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('table.records tbody td')?.textContent === 'Account 26');
    assert.deepEqual(await rowsOf(page), ['Account 26', 'Account 27', 'Account 28']);
    assert.equal(await filter.inputValue(), "accountname start-with 'Account'");
    assert.equal(await page.locator('table.records th[aria-sort=ascending]').textContent(), 'Account Name ▲');
    assert.match((await page.textContent('nav.pager span'))!, /Page 2/);
  });

  test('a lookup whose text is typed but not picked refuses the save with a message by the field, and Enter in it submits nothing', async () => {
    const page = await tab();
    await signIn(page, ADA);
    await go(page, 'data/account/new');
    await page.waitForSelector('#field-accountname');
    const posts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST' && r.url().includes('/api/record/')) posts.push(r.postData() ?? ''); });
    await page.fill('#field-accountname', 'Unpicked Parent Ltd');
    const parent = page.locator('#field-parentaccountid');
    await parent.fill('Account');
    await page.waitForSelector('#field-parentaccountid-options [role=option]');
    await parent.press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(posts, [], 'Enter with nothing highlighted submits nothing');
    await page.click('button[type=submit]:has-text("Create")');
    const message = page.locator('[data-field=parentaccountid] .field-error');
    await message.waitFor();
    assert.match((await message.textContent())!, /not picked/);
    assert.equal(await parent.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(posts, [], 'nothing saved');
    await parent.press('ArrowDown');
    await parent.press('Enter');
    assert.equal(await message.count(), 0);
    await page.click('button[type=submit]:has-text("Create")');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Unpicked Parent Ltd');
    assert.ok(JSON.parse(posts[0]!).parentaccountid, 'the picked parent is saved');
    const id = decodeURIComponent(page.url().split('/').pop()!);
    assert.equal((await api(ADA, 'DELETE', `/api/record/account/${id}`)).status, 200);
  });

  test('a record table without its primary column still opens each record, and with no column says so', async () => {
    const page = await accountsTable();
    await page.click('details.columns summary');
    await page.uncheck('details.columns label:has-text("accountname") input');
    await page.waitForFunction(() => ![...document.querySelectorAll('table.records th')].some((th) => th.textContent === 'Account Name'));
    const open = page.locator('table.records tbody tr').first().locator('a[href^="#/data/account/"]');
    assert.equal(await open.count(), 1, 'the row opens its record');
    await open.click();
    await page.waitForSelector('form.record');
    await page.goBack();
    await page.waitForSelector('table.records tbody tr');
    await page.click('details.columns summary');
    const ticked = page.locator('details.columns input:checked');
    while ((await ticked.count()) > 0) await ticked.first().uncheck();
    await page.waitForSelector('text=No column chosen');
  });

  test('paging by keyboard keeps the focus on the pager while the page loads and after', async () => {
    const page = await accountsTable();
    await page.route('**/api/query', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.fallback();
    });
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await page.focus('nav.pager button:has-text("Next")');
    await page.keyboard.press('Enter');
    assert.equal(await focused(), 'Next', 'still on Next while the page loads');
    await page.waitForFunction(() => /Page 2/.test(document.querySelector('nav.pager span')?.textContent ?? '') && document.querySelectorAll('table.records tbody tr').length < 25);
    await page.waitForFunction(() => document.activeElement?.closest('nav.pager') !== null);
    assert.equal(await focused(), 'Previous', 'Next is disabled on the last page: the focus moves to Previous');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('table.records tbody tr').length === 25 && !document.querySelector('table.records[aria-busy=true]'));
    assert.equal(await focused(), 'Next');
  });

  test('the toolkit\'s snapshot name is checked by its pattern, and the page logs no error', async () => {
    const page = await tab();
    const logged: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') logged.push(m.text()); });
    await signIn(page, ADMIN_KEY, 'admin');
    await go(page, 'toolkit');
    const input = page.locator('label:has-text("Snapshot name") input');
    await input.fill('bad name!');
    assert.equal(await input.evaluate((el: any) => el.validity.patternMismatch), true);
    await input.fill('good-name.1');
    assert.equal(await input.evaluate((el: any) => el.validity.valid), true);
    assert.deepEqual(logged, []);
  });

  test('the webhook form shows its own refusal, clears the earlier secret and its header fields, and names the webhook a secret belongs to', async () => {
    const page = await tab();
    await signIn(page, ADA);
    await page.click('nav.tabs >> text=Webhooks');
    const form = page.locator('form[aria-label="Make a webhook"]');
    await form.waitFor();
    await page.fill('label:has-text("URL") input', 'http://127.0.0.1:9/one');
    await page.fill('label:has-text("Header fields") textarea', 'X-Api-Key: k-1');
    await page.click('button:has-text("Make webhook")');
    await page.waitForSelector('.once [data-token]');
    assert.match((await page.textContent('.once'))!, /http:\/\/127\.0\.0\.1:9\/one/);
    assert.equal(await page.inputValue('label:has-text("Header fields") textarea'), '');
    await page.fill('label:has-text("URL") input', 'http://127.0.0.1:9/two');
    await page.fill('label:has-text("Filter") input', 'nofield = 1');
    await page.click('button:has-text("Make webhook")');
    await form.locator('[role=alert]').waitFor();
    assert.match((await form.locator('[role=alert]').textContent())!, /FIELD_UNKNOWN/);
    assert.equal(await page.locator('.once').count(), 0, 'the earlier secret is not left beside a refusal');
    for (const h of (await json(await api(ADA, 'GET', '/api/webhooks'))).data) await api(ADA, 'DELETE', `/api/webhooks/${h.id}`);
  });

  test('a record with unsaved edits asks before a link leaves it, and stays when the answer is no', async () => {
    const page = await editedGlobex('+1 555 0133');
    const asked = answerNext(page, false);
    await page.click('nav.tabs >> text=Usage');
    await page.waitForFunction(() => location.hash.startsWith('#/data/account/'));
    assert.match(asked.join(), /unsaved changes/);
    assert.equal(await page.inputValue('#field-telephone2'), '+1 555 0133', 'the edit is still there');
    answerNext(page, true);
    await page.click('nav.tabs >> text=Usage');
    await page.waitForSelector('[data-window=minute]');
  });

  test('a url field is a link only when it is a web address: a javascript: one stays text', async () => {
    assert.equal((await api(ADA, 'PUT', `/api/record/account/${INITECH}`, { websiteurl: 'javascript:alert(1)' })).status, 200);
    try {
      const page = await tab();
      await signIn(page, ADA);
      await go(page, `data/account/${INITECH}`);
      await page.waitForSelector('[data-field=websiteurl] dd:has-text("javascript:alert(1)")');
      assert.equal(await page.locator('[data-field=websiteurl] a').count(), 0);
      assert.equal((await api(ADA, 'PUT', `/api/record/account/${INITECH}`, { websiteurl: 'https://initech.example' })).status, 200);
      await page.reload();
      assert.equal(await page.getAttribute('[data-field=websiteurl] a', 'href'), 'https://initech.example');
    } finally {
      await api(ADA, 'PUT', `/api/record/account/${INITECH}`, { websiteurl: null });
    }
  });

  test('the focus goes to the first view\'s heading after signing in, and to the secret field after signing out', async () => {
    const page = await tab();
    await signIn(page, ADA);
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Data');
    await page.click('text=Sign out');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'secret');
  });

  test('each row\'s Delete and Restore buttons are named after their row', async () => {
    const acme = await acmeId();
    assert.equal((await control('POST', `/organizations/${acme}/snapshots`, { name: 'named-a' })).status, 201);
    try {
      const page = await tab();
      await adminOfAcme(page, 'admin');
      const names = (table: string) => page.$$eval(`table[aria-label=${table}] button.danger`, (bs) => bs.map((b) => b.getAttribute('aria-label') ?? b.textContent));
      await page.waitForSelector('table[aria-label=Users] button.danger');
      const users = await names('Users');
      assert.ok(users.includes('Delete ada@acme.example') && users.includes('Delete sam@acme.example'), users.join(', '));
      await go(page, 'toolkit');
      await page.waitForSelector('table[aria-label=Snapshots] button.danger');
      assert.deepEqual(await names('Snapshots'), ['Restore named-a', 'Delete snapshot named-a']);
    } finally {
      await control('DELETE', `/organizations/${acme}/snapshots/named-a`);
    }
  });

  test('with the admin key, the data views act with the primary user\'s real role: no Webhooks tab when it is not admin', async () => {
    const ada = await userOfAcme('ada@acme.example');
    const page = await tab();
    await adminOfAcme(page, 'data');
    await page.waitForSelector('table[aria-label=Objects]');
    await page.locator('nav.tabs >> text=Webhooks').waitFor();
    assert.equal((await control('PATCH', `/users/${ada.id}`, { role: 'sales' })).status, 200);
    try {
      await go(page, 'usage');
      await page.locator('nav.tabs >> text=Webhooks').waitFor({ state: 'detached' });
      await go(page, 'data');
      await page.waitForFunction(() => /role sales/.test(document.querySelector('main p.muted')?.textContent ?? ''));
    } finally {
      await control('PATCH', `/users/${ada.id}`, { role: 'admin' });
    }
  });

  test('on a phone, a stacked table labels each value with its column\'s name', async () => {
    const page = await tab({ width: 375, height: 740 });
    await adminOfAcme(page, 'admin');
    const cell = page.locator('tr[data-user="sam@acme.example"] td').first();
    await cell.waitFor();
    assert.equal(await cell.getAttribute('data-label'), 'Role');
    assert.equal(await cell.evaluate((td: any) => window.getComputedStyle(td, '::before').display !== 'none' && window.getComputedStyle(td, '::before').content !== 'none'), true, 'the label is shown');
    await go(page, 'data');
    await page.waitForSelector('td[data-object=account][data-label=Records]');
  });

  test('a role chosen while the users are being read again is kept, and given when "Change role" is pressed', async () => {
    const page = await tab();
    await adminOfAcme(page, 'admin');
    const row = page.locator('tr[data-user="sam@acme.example"]');
    await row.waitFor();
    const sam = await userOfAcme('sam@acme.example');
    // The users' next read is held until the role is chosen: the list is read again meanwhile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let reading!: () => void;
    const read = new Promise<void>((resolve) => { reading = resolve; });
    let holding = true;
    await page.route('**/_orchard/organizations/*/users', async (route) => {
      if (route.request().method() !== 'GET' || !holding) return route.fallback();
      holding = false;
      reading();
      await held;
      await route.fallback();
    });
    try {
      await row.locator('button:has-text("Disable")').click();
      await read;
      await row.locator('select').selectOption('admin');
      release();
      await row.locator('td:has-text("disabled since")').waitFor();
      assert.equal(await row.locator('select').inputValue(), 'admin', 'the choice outlives the list read again');
      const patched = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/users/${sam.id}`));
      await row.locator('button:has-text("Change role")').click();
      assert.deepEqual(JSON.parse((await patched).request().postData()!), { role: 'admin' });
      await row.locator('button.change-role').waitFor({ state: 'detached' });
      assert.equal((await userOfAcme('sam@acme.example')).role, 'admin');
      assert.equal(await row.locator('select').inputValue(), 'admin');
    } finally {
      release();
      await control('PATCH', `/users/${sam.id}`, { role: 'sales', disabled: false });
    }
  });

  test('a kept page past the last one after records are deleted comes back as the last page there is, or the first when none is left', async () => {
    const made: string[] = [];
    const make = async (n: number) => {
      for (let i = 1; i <= n; i++) made.push((await json(await api(ADA, 'POST', '/api/record/account', { accountname: `Gone ${String(i).padStart(2, '0')}` }))).data.Record.accountid);
    };
    const removeMade = async () => {
      for (const id of made.splice(0)) assert.equal((await api(ADA, 'DELETE', `/api/record/account/${id}`)).status, 200);
    };
    const pageIs = (label: RegExp, rows: number) => page.waitForFunction(([source, n]) => new RegExp(source as string).test(document.querySelector('nav.pager span')?.textContent ?? '')
      && document.querySelectorAll('table.records tbody tr').length === n && !document.querySelector('table.records[aria-busy=true]'), [label.source, rows] as const);
    /** Leaves the table for another view, deletes what the test made, and comes back to the table. */
    const deleteAndComeBack = async () => {
      await go(page, 'usage');
      await page.waitForSelector('[data-window=minute]');
      await removeMade();
      await go(page, 'data/account');
    };
    await make(26);
    const page = await accountsTable();
    try {
      // Filtered: 26 records, two pages; the second kept, then every one deleted.
      const filter = page.locator('#filter-input');
      await filter.fill("accountname start-with 'Gone'");
      await filter.press('Enter');
      await pageIs(/^Page 1$/, 25);
      await page.click('nav.pager >> text=Next');
      await pageIs(/^Page 2$/, 1);
      await deleteAndComeBack();
      await page.waitForSelector('table.records td:text-is("No records match the filter.")');
      await pageIs(/^Page 1$/, 1);
      assert.equal(await page.isDisabled('nav.pager >> text=Previous'), true);

      // Unfiltered: 51 records, three pages; the third kept, then 21 deleted (two pages left).
      await page.click('.filter >> text=Clear');
      await make(21);
      await go(page, 'data');
      await page.waitForSelector('td[data-object=account]:text-is("51")');
      await go(page, 'data/account');
      await pageIs(/^Page 1 of 3$/, 25);
      await page.click('nav.pager >> text=Next');
      await pageIs(/^Page 2 of 3$/, 25);
      await page.click('nav.pager >> text=Next');
      await pageIs(/^Page 3 of 3$/, 1);
      await deleteAndComeBack();
      await pageIs(/^Page 2 of 2$/, 5);
      assert.equal(await page.isDisabled('nav.pager >> text=Next'), true);
    } finally {
      await removeMade();
    }
  });

  test('signing out with unsaved edits asks first, and a no keeps the session and the edits', async () => {
    const page = await editedGlobex('+1 555 0144');
    const asked = answerNext(page, false);
    await page.click('text=Sign out');
    await page.waitForFunction(() => document.querySelector('header.top') !== null);
    assert.match(asked.join(), /Sign out\? .*unsaved changes/);
    assert.equal(await page.inputValue('#field-telephone2'), '+1 555 0144', 'the edit is still there');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('orchard-console-session') !== null), true, 'still signed in');
    answerNext(page, true);
    await page.click('text=Sign out');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'secret');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('orchard-console-session')), null);
  });

  test('a token revoked while its session is open says it no longer works and offers the sign-in form', async () => {
    const sam = await userOfAcme('sam@acme.example');
    const made = await json(await control('POST', `/users/${sam.id}/tokens`));
    const page = await tab();
    await signIn(page, made.token);
    await page.waitForSelector('table[aria-label=Objects]');
    assert.equal((await control('POST', `/tokens/${made.created.id}/revoke`)).status, 200);
    await go(page, 'usage');
    const told = page.locator('.sign-in [role=alert]');
    await told.waitFor();
    assert.match((await told.textContent())!, /TOKEN_INVALID.*no longer works.*revoked.*[Ss]ign in again/);
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'secret');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('orchard-console-session')), null, 'the refused token is not kept');
    await page.keyboard.type(SAM);
    await page.keyboard.press('Enter');
    await page.waitForSelector('header.top');
    assert.equal(await page.textContent('header .badge'), 'role: sales');
    assert.equal(await told.count(), 0);
  });

  test('a webhook\'s secret rotated from the list: the overlap asked (24 hours unless changed), the new secret shown once with when the old one stops signing, both signing meanwhile; a refusal shown above the list', async () => {
    const receiver = await webhookReceiver();
    const made = (await json(await api(ADA, 'POST', '/api/webhooks', { event: 'created', object: 'account', url: receiver.url }))).data;
    try {
      const page = await tab();
      await signIn(page, ADA);
      await go(page, 'webhooks');
      const row = page.locator(`tr[data-webhook="${receiver.url}"]`);
      await row.locator('button:has-text("Rotate secret")').click();
      const hours = row.locator('form input[type=number]');
      assert.equal(await hours.inputValue(), '24');
      assert.equal(await hours.evaluate((el: HTMLElement) => el === document.activeElement), true, 'the overlap asked has the focus');
      await hours.fill('48');
      const rotated = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/webhooks/${made.id}/rotate-secret`));
      await row.locator('button:has-text("Rotate")').click();
      assert.deepEqual(JSON.parse((await rotated).postData()!), { expiresInHours: 48 });
      const secret = (await page.textContent('.once [data-token]'))!;
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, made.secret);
      const shown = (await json(await api(ADA, 'GET', `/api/webhooks/${made.id}`))).data;
      const until = `${shown.previousSecretExpiresAt.replace('T', ' ').replace(/\.\d+Z$/, '')} UTC`;
      assert.ok(Math.abs(Date.parse(shown.previousSecretExpiresAt) - Date.now() - 48 * 3_600_000) < 600_000, shown.previousSecretExpiresAt);
      assert.match((await page.textContent('.once'))!, new RegExp(`new signing secret of the webhook to ${receiver.url}.*shown only now.*replaced also signs each delivery until ${until}`));
      await row.locator(`text=the replaced secret also signs until ${until}`).waitFor();

      // Meanwhile a delivery carries a signature under each: the one shown and the one it replaced.
      assert.equal((await api(ADA, 'POST', `/api/webhooks/${made.id}/test`)).status, 202);
      const delivered = await receiver.next(1);
      for (const key of [secret, made.secret]) assert.deepEqual(new Verifier(key).verify(delivered.body, delivered.headers), JSON.parse(delivered.body));

      // 0 hours: the old one stops at once.
      await row.locator('button:has-text("Rotate secret")').click();
      await hours.fill('0');
      // The list is read again after a rotation: deleting the webhook before that read would take its row away.
      const relisted = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/api/webhooks');
      await hours.press('Enter');
      await relisted;
      await page.waitForFunction((s) => /no longer signs/.test(document.querySelector('.once')?.textContent ?? '') && document.querySelector('.once [data-token]')?.textContent !== s, secret);
      assert.equal((await json(await api(ADA, 'GET', `/api/webhooks/${made.id}`))).data.previousSecretExpiresAt, null);

      // Deleted elsewhere meanwhile: the refusal shows above the list, like the view's other errors, and no secret.
      assert.equal((await api(ADA, 'DELETE', `/api/webhooks/${made.id}`)).status, 200);
      await row.locator('button:has-text("Rotate secret")').click();
      await row.locator('button:has-text("Rotate")').click();
      const alert = page.locator('section > [role=alert]');
      await alert.waitFor();
      assert.match((await alert.textContent())!, /WEBHOOK_NOT_FOUND/);
      assert.equal(await page.locator('.once').count(), 0);
    } finally {
      await api(ADA, 'DELETE', `/api/webhooks/${made.id}`);
      receiver.close();
    }
  });

  /**
   * A server of its own, where one failed attempt disables a webhook, with a webhook of Acme's to a
   * receiver; `disable()` makes it fail once (a test event answered 500), then the receiver answers 200.
   */
  const serverDisablingWebhooks = async () => {
    let answer = 200;
    const receiver = await webhookReceiver(() => answer);
    const other = await startOrchard({ fixtures: FIXTURES, adminKey: ADMIN_KEY, config: { webhooks: { allowPrivate: true, disableFailures: 1, disableHours: 0 } } });
    const at = new URL(other.url).origin;
    origins.add(at);
    const call = (method: string, url: string, headers: Record<string, string>, body?: unknown) => fetch(`${at}${url}`, {
      method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const hook = (await json(await call('POST', '/api/webhooks', { tokenid: ADA }, { event: 'created', object: 'account', url: receiver.url }))).data as { id: string };
    const disable = async () => {
      answer = 500;
      assert.equal((await call('POST', `/api/webhooks/${hook.id}/test`, { tokenid: ADA })).status, 202);
      assert.equal((await call('POST', '/_orchard/webhooks/flush', { authorization: `Bearer ${ADMIN_KEY}` })).status, 204);
      assert.equal((await json(await call('GET', `/api/webhooks/${hook.id}`, { tokenid: ADA }))).data.status, 'disabled');
      answer = 200;
    };
    const close = async () => {
      await other.close();
      receiver.close();
    };
    return { at, receiver, hook, disable, close };
  };

  test('a test event sent to a disabled webhook shows the server\'s refusal and a button that enables it; sent again, it is delivered and the log shows it', async () => {
    const { at, receiver, hook, disable, close } = await serverDisablingWebhooks();
    try {
      await disable();
      const page = await tab(undefined, at);
      await signIn(page, ADA, 'token', at);
      await go(page, 'webhooks');
      const row = page.locator(`tr[data-webhook="${receiver.url}"]`);
      await row.locator('td:has-text("disabled")').waitFor();
      await row.locator('button:has-text("Send test event")').click();
      const alert = page.locator('section > [role=alert]');
      await alert.waitFor();
      assert.match((await alert.textContent())!, new RegExp(`WEBHOOK_DISABLED.*'${hook.id}' is disabled for failing since.*Enable it`));
      await page.click(`button:has-text("Enable the webhook to ${receiver.url}")`);
      await row.locator('td:text-is("active")').waitFor();
      assert.equal(await alert.count(), 0, 'the refusal goes once the webhook is enabled');

      const sent = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/webhooks/${hook.id}/test`));
      await row.locator('button:has-text("Send test event")').click();
      assert.equal((await sent).status(), 202);
      await page.click('[role=status] a:has-text("the delivery log")');
      await page.waitForSelector('tr[data-state=delivered]:has-text("test event")', { timeout: 15_000 });
      assert.equal(JSON.parse(receiver.received.at(-1)!.body).type, 'webhook.test');
    } finally {
      await close();
    }
  });

  test('a webhook\'s delivery log sends a test event too: the log shows it at once, without waiting for a live read; refused for a disabled webhook with the button that enables it', async () => {
    const { at, receiver, hook, disable, close } = await serverDisablingWebhooks();
    try {
      const page = await tab(undefined, at);
      await signIn(page, ADA, 'token', at);
      await go(page, `webhooks/${hook.id}`);
      await page.waitForSelector('text=No delivery yet');
      // Not live: only the read made after the send can show the test delivery.
      await page.uncheck('label:has-text("Live") input');
      const send = page.locator(`section button:has-text("Send test event")`);
      const sent = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/webhooks/${hook.id}/test`));
      await send.click();
      assert.equal((await sent).status(), 202);
      assert.match((await page.textContent('[role=status]'))!, new RegExp(`test event is on its way to ${receiver.url}: its delivery shows in the log below`));
      assert.equal(await page.locator('[role=status] a').count(), 0, 'no link to the page it is on');
      await page.waitForSelector('table[aria-label="Deliveries, newest first"] tr:has-text("test event")');
      assert.equal(JSON.parse((await receiver.next(1)).body).type, 'webhook.test');

      // Disabled since the page was read: refused with the server's message and the button that enables it.
      await disable();
      await send.click();
      const alert = page.locator('section > [role=alert]');
      await alert.waitFor();
      assert.match((await alert.textContent())!, new RegExp(`WEBHOOK_DISABLED.*'${hook.id}' is disabled for failing since`));
      await page.waitForSelector('section p:has-text("Disabled")');
      await page.click(`button:has-text("Enable the webhook to ${receiver.url}")`);
      await page.waitForSelector('section p:text-is("Active")');
      assert.equal(await alert.count(), 0, 'the refusal goes once the webhook is enabled');
      await send.click();
      await page.waitForSelector('[role=status]:has-text("on its way")');
      // The three test events: delivered, failed (which disabled the webhook), and the last one.
      await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Deliveries, newest first"] tbody tr').length === 3);
      assert.equal(await page.locator('tr[data-state=failed]:has-text("test event")').count(), 1);
      assert.equal(JSON.parse((await receiver.next(3)).body).type, 'webhook.test');
    } finally {
      await close();
    }
  });

  /**
   * A server of its own on a data directory of its own, and a tab signed in there with the admin key
   * that opened Acme's data (so the session made a token it cannot revoke once its key stops
   * working), then Admin. The server is stopped: `start` runs it again on the same port and data,
   * with another ADMIN_KEY or none (undefined); `stop` removes the data.
   */
  const adminSessionToRestart = async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-console-restart-'));
    const fixtures = parseFixtures(FIXTURES);
    const start = (adminKey: string | undefined, port: number) => startServer(loadConfig({}, { logLevel: 'silent', host: '127.0.0.1', port, adminKey, dataDir }), () => {}, { fixtures });
    const stop = () => fs.rmSync(dataDir, { recursive: true, force: true });
    const running = await start(ADMIN_KEY, 0);
    try {
      const url = running.url;
      origins.add(new URL(url).origin);
      const page = await tab(undefined, new URL(url).origin);
      await signIn(page, ADMIN_KEY, 'admin', url);
      await page.selectOption('header select', { label: 'Acme' });
      await go(page, 'data');
      await page.waitForSelector('table[aria-label=Objects]');
      await go(page, 'admin');
      await page.waitForSelector('table[aria-label=Users]');
      return { start, page, port: Number(new URL(url).port), stop };
    } catch (err) {
      stop();
      throw err;
    } finally {
      await running.close();
    }
  };

  test('an admin-key session whose key the server no longer takes (restarted with another ADMIN_KEY) ends on the sign-in form, which says so and what to do', async () => {
    const NEW_KEY = 'console-test-admin-key-restarted-9876';
    const { start, page, port, stop } = await adminSessionToRestart();
    let running: RunningServer | null = null;
    try {
      running = await start(NEW_KEY, port);
      await go(page, 'usage');
      const told = page.locator('.sign-in [role=alert]');
      await told.waitFor();
      assert.match((await told.textContent())!, /ADMIN_KEY_INVALID.*admin key this tab was signed in with was refused.*not the server's ADMIN_KEY.*restarted with another ADMIN_KEY\? Sign in again with the key it runs with now.*The token this tab made to open an organization's data could not be revoked: revoke it under Admin/);
      await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'secret');
      assert.equal(await page.isChecked('input[value=admin]'), true, 'the admin key is the secret asked for');
      assert.equal(await page.evaluate(() => sessionStorage.getItem('orchard-console-session')), null, 'the refused key is not kept');
      await page.keyboard.type(NEW_KEY);
      await page.keyboard.press('Enter');
      await page.waitForSelector('header.top');
      assert.equal(await page.textContent('header .badge'), 'admin key');
      assert.equal(await page.evaluate(() => location.hash), '#/usage', 'back on the view it was on');
      await page.waitForSelector('[data-window=minute]');
      assert.equal(await told.count(), 0);
    } finally {
      await running?.close();
      stop();
    }
  });

  test('an admin-key session whose server is restarted without ADMIN_KEY (no control API: 404) ends on the sign-in form, which says so and offers a token', async () => {
    const { start, page, port, stop } = await adminSessionToRestart();
    let running: RunningServer | null = null;
    try {
      running = await start(undefined, port);
      // The server's own 404, not the control API's: no route there at all.
      const off = await fetch(`${running.url}/_orchard/organizations`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      assert.equal(off.status, 404);
      assert.equal((await json(off)).error, undefined);
      await go(page, 'usage');
      const told = page.locator('.sign-in [role=alert]');
      await told.waitFor();
      assert.match((await told.textContent())!, /CONTROL_API_OFF The server no longer runs the control API: it was restarted without ADMIN_KEY.*Sign in with an organization's API token, or restart the server with ADMIN_KEY set.*The token this tab made to open an organization's data could not be revoked: revoke it under Admin.*once the server runs with ADMIN_KEY again/);
      await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'secret');
      assert.equal(await page.isChecked('input[value=token]'), true, 'a token is the secret asked for: no admin key works there');
      assert.equal(await page.evaluate(() => sessionStorage.getItem('orchard-console-session')), null, 'the key is not kept');

      // The admin key tried again is refused with the same reason, and a token signs in on the same view.
      await page.check('input[value=admin]');
      await page.fill('input[name=secret]', ADMIN_KEY);
      await page.keyboard.press('Enter');
      await page.locator('.sign-in form [role=alert]:has-text("CONTROL_API_OFF")').waitFor();
      assert.match((await page.textContent('.sign-in form [role=alert]'))!, /no control API: it runs without ADMIN_KEY/);
      await page.check('input[value=token]');
      await page.fill('input[name=secret]', ADA);
      await page.keyboard.press('Enter');
      await page.waitForSelector('header.top');
      assert.equal(await page.textContent('header .badge'), 'role: admin');
      assert.equal(await page.evaluate(() => location.hash), '#/usage', 'back on the view it was on');
      await page.waitForSelector('[data-window=minute]');
    } finally {
      await running?.close();
      stop();
    }
  });

  test('a row\'s buttons are a cell of their row: in each list table every cell of a row spans the row, its lines unbroken', async () => {
    const page = await tab();
    await adminTokensOf(page, 'sam@acme.example');
    // A revoked token's row has no button: its empty cell showed the break most plainly.
    await page.click('button:has-text("New token")');
    const token = (await page.textContent('.once [data-token]'))!;
    await page.click(`button[aria-label="Revoke token …${token.slice(-4)}"]`);
    await page.click(`button:has-text("Revoke …${token.slice(-4)} for good")`);
    await page.waitForSelector(`tr[data-last4="${token.slice(-4)}"] >> text=revoked`);
    const misfits = () => page.$$eval('table.stackable tr', (rows) => rows.flatMap((tr) => {
      const row = tr.getBoundingClientRect();
      return [...tr.children].filter((cell) => {
        const box = cell.getBoundingClientRect();
        return Math.abs(box.top - row.top) > 1 || Math.abs(box.bottom - row.bottom) > 1 || window.getComputedStyle(cell).display !== 'table-cell';
      }).map((cell) => `${tr.closest('table')!.getAttribute('aria-label')}: ${(cell as HTMLElement).outerHTML.slice(0, 80)}`);
    }));
    assert.deepEqual(await misfits(), []);
    await go(page, 'webhooks');
    await page.waitForSelector('h2:has-text("New webhook")');
    assert.deepEqual(await misfits(), []);
  });

  test('a question asked in place of a button (a second press, a rotation\'s hours) is put away by Escape or Keep, the focus back on the button that asked', async () => {
    const page = await tab();
    await adminOfAcme(page, 'admin');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
    const del = page.locator('button[aria-label="Delete sam@acme.example"]');
    await del.click();
    assert.equal(await focused(), 'Keep', 'asked, "Keep" has the focus');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[role=group][aria-label="Confirm deleting sam@acme.example"]', { state: 'detached' });
    assert.equal(await focused(), 'Delete sam@acme.example', 'Escape put the question away, the focus on the button that asked');
    await del.press('Enter');
    await page.keyboard.press('Enter');
    assert.equal(await focused(), 'Delete sam@acme.example', '"Keep" too gives the focus back');
    assert.equal(await page.locator('tr[data-user="sam@acme.example"]').count(), 1, 'nothing deleted');

    // A webhook's "Rotate secret" asks its hours in a form of its own: Escape keeps the secret too.
    const receiver = await webhookReceiver();
    const made = await api(ADA, 'POST', '/api/webhooks', { event: 'created', object: 'account', url: receiver.url });
    const hook = (await json(made)).data as { id: string };
    try {
      await go(page, 'webhooks');
      const rotate = page.locator(`button[aria-label="Rotate secret of the webhook to ${receiver.url}"]`);
      await rotate.click();
      await page.keyboard.press('Escape');
      await rotate.waitFor();
      assert.equal(await focused(), `Rotate secret of the webhook to ${receiver.url}`);
      assert.equal(await page.locator('.once').count(), 0, 'no secret rotated');
    } finally {
      await api(ADA, 'DELETE', `/api/webhooks/${hook.id}`);
      receiver.close();
    }
  });

  test('a new user\'s token shown once goes when it is rotated or revoked under the user\'s tokens', async () => {
    const page = await tab();
    await adminOfAcme(page, 'admin');
    const shownFor = (email: string) => page.locator(`.once:has-text("The token of ${email}.")`);
    for (const [email, how] of [['rotated@acme.example', 'rotate'], ['revoked@acme.example', 'revoke']] as const) {
      await page.fill('form[aria-label="Add a user"] input[type=email]', email);
      await page.keyboard.press('Enter');
      await shownFor(email).waitFor();
      const last4 = (await shownFor(email).locator('[data-token]').textContent())!.slice(-4);
      await page.click(`tr[data-user="${email}"] button:has-text("Tokens")`);
      const row = page.locator(`[aria-label="Tokens of ${email}"] tr[data-last4="${last4}"]`);
      if (how === 'rotate') {
        await row.locator('button:has-text("Rotate")').click();
        await page.locator(`.once:has-text("The new token replacing …${last4}.")`).waitFor();
      } else {
        await row.locator(`button[aria-label="Revoke token …${last4}"]`).click();
        await row.locator(`button:has-text("Revoke …${last4} for good")`).click();
      }
      await row.locator('text=revoked').waitFor();
      assert.equal(await shownFor(email).count(), 0, `the ${how}d token is no longer shown as one to copy`);
      const user = await userOfAcme(email);
      assert.equal((await control('DELETE', `/users/${user.id}`)).status, 200);
    }
  });

  test('a token\'s Copy says so when the browser will not copy (plain http away from localhost), and selects the token to copy by hand', async () => {
    const page = await tab();
    // As on http://<a LAN address>: no clipboard for the page.
    await page.context().addInitScript(() => Object.defineProperty(Object.getPrototypeOf(window.navigator), 'clipboard', { get: () => undefined }));
    await adminTokensOf(page, 'sam@acme.example');
    await page.click('button:has-text("New token")');
    const token = (await page.textContent('.once [data-token]'))!;
    await page.click('.once button:has-text("Copy")');
    await page.locator('.once [role=alert]:has-text("Not copied")').waitFor();
    assert.equal(await page.evaluate(() => String(window.getSelection())), token, 'the token is selected');
    await page.click(`button[aria-label="Revoke token …${token.slice(-4)}"]`);
    await page.click(`button:has-text("Revoke …${token.slice(-4)} for good")`);
  });

  test('adding a user refused (an e-mail already taken) is told by the form, not above the table', async () => {
    const page = await tab();
    await adminOfAcme(page, 'admin');
    await page.fill('form[aria-label="Add a user"] input[type=email]', 'ada@acme.example');
    await page.keyboard.press('Enter');
    const refusal = page.locator('form[aria-label="Add a user"] + [role=alert]');
    await refusal.waitFor();
    assert.match((await refusal.textContent())!, /PARAM_INVALID.*already has a user with the e-mail 'ada@acme.example'/);
    assert.equal(await page.locator('section[aria-labelledby=users-title] [role=alert]').count(), 1, 'said once, by the form');
  });

  test('the buttons of each list table are named after their row, so a screen reader\'s list of buttons tells them apart', async () => {
    const acme = await acmeId();
    const sam = await userOfAcme('sam@acme.example');
    const made = await json(await control('POST', `/users/${sam.id}/tokens`));
    assert.equal((await control('PUT', `/organizations/${acme}/roles/named-rows`, { grant: 'account:read' })).status, 200);
    const others = await Promise.all(['Named Rows One', 'Named Rows Two'].map(async (name, i) => (await json(await control('POST', '/organizations', { name, email: `rows${i}@named.example` }))).organization.id as string));
    for (const status of [503, 500]) assert.equal((await control('POST', '/faults', { orgId: acme, status })).status, 201);
    try {
      const page = await tab();
      await adminTokensOf(page, 'sam@acme.example');
      /** The accessible names of a table's buttons said more than once. */
      const repeated = (table: string) => page.$$eval(`table[aria-label="${table}"] button`, (bs) => {
        const names = bs.map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim());
        return names.filter((n, i) => names.indexOf(n) !== i);
      });
      await page.waitForSelector('table[aria-label=Roles] tr:has-text("named-rows")');
      for (const table of ['Users', 'Tokens of sam@acme.example', 'Roles']) assert.deepEqual(await repeated(table), [], table);
      await go(page, 'toolkit');
      await page.waitForSelector('table[aria-label="Fault rules"] tbody tr:nth-child(2)');
      assert.deepEqual(await repeated('Fault rules'), []);
      await go(page, 'orgs');
      await page.waitForSelector('table[aria-label=Organizations] tr:has-text("Named Rows Two")');
      assert.deepEqual(await repeated('Organizations'), []);
    } finally {
      await control('DELETE', `/faults?orgId=${acme}`);
      for (const id of others) await control('DELETE', `/organizations/${id}`);
      await control('DELETE', `/organizations/${acme}/roles/named-rows`);
      await control('POST', `/tokens/${made.created.id}/revoke`);
    }
  });

  test('on a phone, a request opened from the journal takes the focus to its detail, in sight below the list', async () => {
    for (let i = 0; i < 30; i++) assert.equal((await api(ADA, 'GET', `/api/record/account?pagesize=1&marker=phone${i}`)).status, 200);
    const page = await tab({ width: 390, height: 844 });
    await adminOfAcme(page, 'requests');
    // One far down the list: the 20th of those just made, newest first.
    const link = page.locator('table.requests a[aria-label="GET /api/record/account, 200"]').nth(20);
    await link.click();
    const heading = page.locator('article.detail h2');
    await heading.waitFor();
    await page.waitForFunction(() => document.activeElement === document.querySelector('article.detail h2'));
    const box = await heading.evaluate((h: HTMLElement) => { const r = h.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: window.innerHeight }; });
    assert.ok(box.top >= 0 && box.bottom <= box.height, `the detail's heading is in sight: ${JSON.stringify(box)}`);
  });

  test('a record\'s save says it was saved (or that nothing changed) with the focus back on Edit; a refused save says why and nothing else', async () => {
    const made = await json(await api(ADA, 'POST', '/api/record/account', { accountname: 'Saved Notice Co' }));
    const id = made.data.Record.accountid as string;
    try {
      const page = await tab();
      await signIn(page, ADA);
      await go(page, `data/account/${id}`);
      const notice = page.locator('.notice[role=status]');
      const focused = () => page.evaluate(() => document.activeElement?.textContent);
      await page.click('button:has-text("Edit")');
      await page.fill('#field-telephone1', '+1 555 0161');
      await page.click('button[type=submit]:has-text("Save")');
      await notice.waitFor();
      assert.equal(await notice.textContent(), 'Saved: 1 field changed.');
      assert.equal(await focused(), 'Edit', 'the focus back on Edit');
      assert.equal((await json(await api(ADA, 'GET', `/api/record/account/${id}`))).data.Record.telephone1, '+1 555 0161');

      await page.click('button:has-text("Edit")');
      assert.equal(await notice.count(), 0, 'said until the next edit');
      const puts: string[] = [];
      page.on('request', (r) => { if (r.method() === 'PUT') puts.push(r.url()); });
      await page.click('button[type=submit]:has-text("Save")');
      await page.locator('.notice:has-text("Nothing to save: no field was changed.")').waitFor();
      assert.deepEqual(puts, [], 'nothing sent');

      await page.click('button:has-text("Edit")');
      await refusedParent(page, 'Save');
      assert.equal(await notice.count(), 0, 'no "Saved" beside the refusal');
      assert.equal(await page.locator('#field-parentaccountid').count(), 1, 'the form stays open');
    } finally {
      await api(ADA, 'DELETE', `/api/record/account/${id}`);
    }
  });

  test('Hebrew values read right to left (a trailing "!" at their left end) in the table, the record, its history and its edit, while Latin ones stay left to right', async () => {
    const HEBREW = 'שלום, עולם!';
    const made = await json(await api(ADA, 'POST', '/api/record/account', { accountname: HEBREW, description: HEBREW, telephone1: 'Desk 7!' }));
    const id = made.data.Record.accountid as string;
    // The direction each piece of text showing exactly `text` is laid out in: that of the element holding it.
    const directions = (page: Page, text: string) => page.evaluate((t) => {
      const found: string[] = [];
      const walker = document.createTreeWalker(document.querySelector('main'), 4);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.data === t) found.push(node.parentElement.matches(':dir(rtl)') ? 'rtl' : 'ltr');
      }
      return found;
    }, text);
    try {
      const page = await tab();
      await signIn(page, ADA);
      await go(page, 'data/account');
      await page.locator(`table.records a:has-text("${HEBREW}")`).waitFor();
      assert.deepEqual(await directions(page, HEBREW), ['rtl'], 'the table\'s name link');

      await go(page, `data/account/${id}`);
      await page.locator('.history li[data-operation=create]').waitFor();
      // The heading, the name and the description, then the history's name and description.
      assert.deepEqual(await directions(page, HEBREW), ['rtl', 'rtl', 'rtl', 'rtl', 'rtl']);
      assert.deepEqual(await directions(page, 'Desk 7!'), ['ltr', 'ltr'], 'a Latin value stays left to right');

      await page.click('button:has-text("Edit")');
      const rtl = (selector: string) => page.$eval(selector, (el: HTMLElement) => el.matches(':dir(rtl)'));
      assert.equal(await rtl('#field-accountname'), true, 'its field while edited');
      assert.equal(await rtl('#field-description'), true);
      assert.equal(await rtl('#field-telephone1'), false);
    } finally {
      await api(ADA, 'DELETE', `/api/record/account/${id}`);
    }
  });

  /** A new tab signed in with the admin key, on Requests, once a request of this status class (s2: 2xx) is listed. */
  const requestsView = async (shown: 's2' | 's4'): Promise<Page> => {
    const page = await tab();
    await signIn(page, ADMIN_KEY, 'admin');
    await go(page, 'requests');
    await page.locator(`table.requests td.${shown}`).first().waitFor();
    return page;
  };

  test('the journal\'s status filter takes a class in capitals (4XX) as the control API does, rather than ignoring it', async () => {
    assert.equal((await api(ADA, 'GET', '/api/record/account?pagesize=1')).status, 200);
    assert.equal((await api(ADA, 'GET', '/api/record/account/00000000-0000-4000-8000-00000000dead')).status, 404);
    const page = await requestsView('s2');
    const next = page.waitForRequest((r) => r.url().includes('/journal?'));
    await page.fill('label:has-text("Status") input', '4XX');
    assert.equal(new URL((await next).url()).searchParams.get('status'), '4XX', 'the next read of the journal asks for 4XX');
    await page.waitForFunction(() => {
      const statuses = [...document.querySelectorAll('table.requests tbody td.status')].map((td) => td.textContent);
      return statuses.length > 0 && statuses.every((s) => s?.startsWith('4'));
    });
  });

  test('the journal\'s "path contains" finds a path whatever its percent-encoding: typed Hebrew, or a space', async () => {
    // fetch sends the Hebrew and the space percent-encoded, as browsers and clients do.
    assert.equal((await api(ADA, 'GET', '/api/record/account/שלום')).status, 400);
    assert.equal((await api(ADA, 'GET', '/api/record/account/two words')).status, 400);
    const page = await requestsView('s4');
    const rowsFor = async (typed: string) => {
      const read = page.waitForResponse((r) => new URL(r.url()).searchParams.get('path') === typed);
      await page.fill('label:has-text("Path contains") input', typed);
      await read;
      await page.waitForFunction(() => document.querySelector('table.requests tbody tr a, table.requests tbody td.muted') !== null);
      return page.$$eval('table.requests tbody tr a', (links) => links.map((a) => a.textContent));
    };
    assert.deepEqual(await rowsFor('שלום'), ['/api/record/account/%D7%A9%D7%9C%D7%95%D7%9D']);
    assert.deepEqual(await rowsFor('account/two words'), ['/api/record/account/two%20words']);
  });

  test('a record\'s history names every user it shows, in an organization of more than 500 users, asking for those users only', async () => {
    const former = Array.from({ length: 520 }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, fullname: `Former ${i}`, email: `former${i}@many.example` }));
    // The last, by creation and by id: past the first 500 users whatever order they are read in.
    const last = { id: 'ffffffff-ffff-4fff-8fff-ffffffffffff', fullname: 'Zelda Last', email: 'zelda@many.example' };
    const TOKEN = 'many-users-token-0001';
    const ACCOUNT = '44444444-4444-4444-8444-444444444444';
    const loaded = await json(await control('POST', '/fixtures', { organizations: [{
      name: 'Many Users Co', plan: 'enterprise', limits: { minute: 1000 },
      users: [{ email: 'mia@many.example', fullname: 'Mia Primary', tokens: [TOKEN] }],
      formerUsers: [...former, last],
      records: { account: [{ accountid: ACCOUNT, accountname: 'Owned by the last', ownerid: last.id }] },
    }] }));
    const orgId = loaded.organizations[0].id as string;
    try {
      const page = await tab();
      const userQueries: Array<Record<string, unknown>> = [];
      page.on('request', (r) => {
        const body = r.method() === 'POST' && r.url().endsWith('/api/query') ? JSON.parse(r.postData() ?? '{}') : null;
        if (body?.objecttype === 'crmuser') userQueries.push(body);
      });
      await signIn(page, TOKEN);
      await go(page, `data/account/${ACCOUNT}`);
      const created = page.locator('.history li[data-operation=create]');
      await created.waitFor();
      await page.waitForFunction(() => /by Mia Primary/.test(document.querySelector('.history li[data-operation=create]')?.textContent ?? ''));
      assert.equal(await created.locator('tr[data-changed=ownerid] ins a').textContent(), 'Zelda Last');
      assert.ok(userQueries.length > 0);
      for (const q of userQueries) assert.match(String(q.query), /^crmuserid = '[0-9a-f-]{36}'( OR crmuserid = '[0-9a-f-]{36}')*$/, 'only the users shown are asked for');
    } finally {
      await control('DELETE', `/organizations/${orgId}`);
    }
  });

  test('a lookup\'s search takes a typed % or _ as itself, not as a wildcard', async () => {
    const names = ['50% Off Ltd', '50X Off Ltd', 'Snake_case Co', 'SnakeXcase Co'];
    const ids: string[] = [];
    for (const accountname of names) ids.push((await json(await api(ADA, 'POST', '/api/record/account', { accountname }))).data.Record.accountid);
    try {
      const page = await tab();
      await signIn(page, ADA);
      await go(page, `data/account/${GLOBEX}`);
      await page.click('text=Edit');
      const parent = page.locator('#field-parentaccountid');
      const options = async (typed: string, expected: string) => {
        await parent.fill(typed);
        await page.waitForSelector(`#field-parentaccountid-options [role=option]:has-text("${expected}")`);
        return page.$$eval('#field-parentaccountid-options [role=option]', (els) => els.map((e) => e.textContent));
      };
      assert.deepEqual(await options('50%', '50% Off'), ['50% Off Ltd']);
      assert.deepEqual(await options('e_c', 'Snake_case'), ['Snake_case Co']);
      assert.deepEqual(await options('0% off', '50% Off'), ['50% Off Ltd'], 'without regard to case, anywhere in the name');
      await page.click('button:has-text("Cancel")');
    } finally {
      for (const id of ids) await api(ADA, 'DELETE', `/api/record/account/${id}`);
    }
  });

  test('a delivery log\'s route names one webhook: an id holding "../" reads no other route of the API', async () => {
    const page = await tab();
    await signIn(page, ADA);
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await go(page, `webhooks/${encodeURIComponent('../record/account')}`);
    await page.locator('main .error[role=alert]').waitFor();
    assert.deepEqual(asked.filter((p) => p.startsWith('/api/record')), [], 'no record read');
    assert.ok(asked.includes('/api/webhooks/..%2Frecord%2Faccount'), 'the webhook asked for by its id, as one segment');
  });

  /** A second organization beside Acme, deleted once `use` ends, and a new tab signed in with the admin key (showing Acme). */
  const withAnotherOrganization = async (name: string, email: string, use: (page: Page, acme: string, other: string) => Promise<void>) => {
    const acme = await acmeId();
    const other = (await json(await control('POST', '/organizations', { name, email }))).organization.id as string;
    try {
      const page = await tab();
      await signIn(page, ADMIN_KEY, 'admin');
      await use(page, acme, other);
    } finally {
      await control('DELETE', `/organizations/${other}`);
    }
  };

  test('choosing another organization in the header while a record\'s edits are unsaved asks first: a no keeps the organization, the record and the edits', () => withAnotherOrganization('Picker Unsaved Co', 'picker@unsaved.example', async (page, acme, other) => {
    await go(page, `data/account/${GLOBEX}`);
    await page.click('button:has-text("Edit")');
    await page.fill('#field-telephone1', '+1 555 0199');
    const asked: string[] = [];
    page.once('dialog', (d) => { asked.push(d.message()); void d.dismiss(); });
    await page.selectOption('select[aria-label=Organization]', other);
    assert.deepEqual(asked, ['Show another organization? The unsaved changes to this record will be lost.']);
    assert.equal(await page.inputValue('select[aria-label=Organization]'), acme, 'the select shows Acme still');
    assert.equal(await page.inputValue('#field-telephone1'), '+1 555 0199', 'the edits kept');
    assert.equal(await page.evaluate(() => JSON.parse(sessionStorage.getItem('orchard-console-session')).orgId), acme, 'the session still on Acme');

    page.once('dialog', (d) => void d.accept());
    await page.selectOption('select[aria-label=Organization]', other);
    await page.locator('form.record').waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => JSON.parse(sessionStorage.getItem('orchard-console-session')).orgId), other, 'a yes shows the other one');
    await page.click('text=Sign out');
    await page.waitForSelector('input[name=secret]:focus');
  }));

  test('an organization chosen in the task right after a record\'s first edit still asks first: the edit is held as it renders, not a frame later', () => withAnotherOrganization('Picker Quick Co', 'picker@quick.example', async (page, acme, other) => {
    await go(page, `data/account/${GLOBEX}`);
    await page.click('button:has-text("Edit")');
    const asked: string[] = [];
    page.once('dialog', (d) => { asked.push(d.message()); void d.dismiss(); });
    // A keystroke and a pick a moment apart, as a quick hand or an autofill makes them: the render
    // the keystroke asks for runs before the next task; the page's next frame may come after it.
    await page.evaluate(async (id) => {
      const input = document.querySelector('#field-telephone1');
      input.value = '+1 555 0142';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      const select = document.querySelector('select[aria-label=Organization]');
      select.value = id;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }, other);
    assert.deepEqual(asked, ['Show another organization? The unsaved changes to this record will be lost.']);
    assert.equal(await page.inputValue('select[aria-label=Organization]'), acme, 'the select shows Acme still');
    assert.equal(await page.inputValue('#field-telephone1'), '+1 555 0142', 'the edit kept');
    page.once('dialog', (d) => void d.accept());
    await page.click('text=Sign out');
    await page.waitForSelector('input[name=secret]:focus');
  }));

  test('another organization chosen in the header shows nothing of the one before: no notice of its snapshot, no role typed for it in the form', () => withAnotherOrganization('Stale State Co', 'stale@state.example', async (page, acme, other) => {
    try {
      await go(page, 'toolkit');
      await page.fill('label:has-text("Snapshot name") input', 'stale-a');
      await page.click('button:has-text("Take snapshot")');
      await page.locator('.notice:has-text("Snapshot stale-a taken.")').waitFor();
      await page.selectOption('select[aria-label=Organization]', other);
      await page.locator('.panel:has-text("Reset and snapshots") p.muted:has-text("No snapshot.")').waitFor();
      assert.equal(await page.locator('.notice').count(), 0, 'Stale State Co took no snapshot');

      await page.selectOption('select[aria-label=Organization]', acme);
      await go(page, 'admin');
      await page.fill('label:has-text("Role name") input', 'acme-only');
      await page.fill('label:has-text("Grants") input', 'account:read');
      await page.selectOption('select[aria-label=Organization]', other);
      await page.locator('table[aria-label=Users] tr[data-user="stale@state.example"]').waitFor();
      assert.equal(await page.inputValue('label:has-text("Role name") input'), '', 'the role typed for Acme is not offered to Stale State Co');
      assert.equal(await page.inputValue('label:has-text("Grants") input'), '');
    } finally {
      await control('DELETE', `/organizations/${acme}/snapshots/stale-a`);
    }
  }));

  test('Escape cancels a record\'s edit as Cancel does (after closing a lookup\'s list first; asking first when there are changes), and closes a request\'s detail as Close does, the focus back where it came from', async () => {
    let page = await tab();
    await signIn(page, ADA);
    await go(page, `data/account/${GLOBEX}`);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('href') ?? document.activeElement?.textContent);
    const before = await page.textContent('[data-field=telephone1] dd');
    await page.click('button:has-text("Edit")');
    // The edit opens on its first field (Edit itself goes).
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'field-accountname');
    await page.fill('#field-telephone1', '+1 555 0188');
    const puts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'PUT') puts.push(r.url()); });
    // With changes made, Escape asks first (a key pressed by mistake): a no keeps the edit as it was.
    const asked = answerNext(page, false);
    await page.keyboard.press('Escape');
    assert.deepEqual(asked, ['Drop the unsaved changes to this record?']);
    assert.equal(await page.inputValue('#field-telephone1'), '+1 555 0188', 'a no keeps the edit');
    answerNext(page, true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#field-telephone1', { state: 'detached' });
    assert.equal(await page.textContent('[data-field=telephone1] dd'), before, 'the edit dropped');
    assert.equal(await focused(), 'Edit', 'the focus back on Edit');
    // A lookup's open list takes the first Escape; the next cancels the edit.
    await page.keyboard.press('Enter');
    await page.fill('#field-parentaccountid', 'Ini');
    await page.waitForSelector('#field-parentaccountid-options [role=option]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#field-parentaccountid-options', { state: 'detached' });
    assert.equal(await page.locator('#field-parentaccountid').count(), 1, 'still editing');
    answerNext(page, true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#field-parentaccountid', { state: 'detached' });
    assert.equal(await focused(), 'Edit');
    assert.deepEqual(puts, [], 'nothing saved');

    // A request's detail, opened by keyboard from its row: Escape, then Close, each back to that row's link.
    assert.equal((await api(ADA, 'GET', '/api/record/account?pagesize=1&marker=escape')).status, 200);
    page = await tab();
    await adminOfAcme(page, 'requests');
    const link = page.locator('table.requests a[aria-label="GET /api/record/account, 200"]').first();
    await link.waitFor({ timeout: 10_000 });
    const opens = (await link.getAttribute('href'))!;
    for (const how of ['Escape', 'Close']) {
      await page.focus(`table.requests a[href="${opens}"]`);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement === document.querySelector('article.detail h2'));
      if (how === 'Escape') await page.keyboard.press('Escape');
      else await page.click('article.detail a:has-text("Close")');
      await page.waitForSelector('article.detail', { state: 'detached' });
      assert.equal(await page.evaluate(() => location.hash), '#/requests', how);
      await page.waitForFunction((h) => document.activeElement?.getAttribute('href') === h, opens);
    }
  });

  test('each token shown once has a Copy button named after what it copies: a new user\'s and another user\'s side by side', async () => {
    const page = await tab();
    await adminTokensOf(page, 'sam@acme.example');
    await page.click('button:has-text("New token")');
    await page.fill('form[aria-label="Add a user"] input[type=email]', 'copies@acme.example');
    await page.keyboard.press('Enter');
    await page.locator('.once:has-text("The token of copies@acme.example.")').waitFor();
    const copyButtons = page.locator('.once button:has-text("Copy")');
    assert.equal(await copyButtons.count(), 2, 'two on screen');
    for (const name of ['Copy a new token for sam@acme.example', 'Copy the token of copies@acme.example']) {
      assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);
    }
    // Once copied, its name says so, still naming what.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.getByRole('button', { name: 'Copy the token of copies@acme.example', exact: true }).click();
    await page.getByRole('button', { name: 'Copied the token of copies@acme.example', exact: true }).waitFor();
    assert.equal(await page.evaluate(() => window.navigator.clipboard.readText()), await page.textContent('.once:has-text("The token of copies@acme.example.") [data-token]'));
    const sams = (await page.textContent('[aria-label="Tokens of sam@acme.example"] .once [data-token]'))!;
    await page.click(`button[aria-label="Revoke token …${sams.slice(-4)}"]`);
    await page.click(`button:has-text("Revoke …${sams.slice(-4)} for good")`);
    const user = await userOfAcme('copies@acme.example');
    assert.equal((await control('DELETE', `/users/${user.id}`)).status, 200);
  });

  test('no page asked for anything outside the server\'s origin, no script failed and the CSP refused nothing', () => {
    assert.ok(log.requests.length > 50, `${log.requests.length} requests seen`);
    const outside = log.requests.filter((url) => !url.startsWith('data:') && !origins.has(new URL(url).origin));
    assert.deepEqual(outside, []);
    assert.deepEqual(log.errors, []);
  });
});
