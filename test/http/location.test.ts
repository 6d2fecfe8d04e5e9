// The Location of a created record: BASE_URL when set, else the address the request was sent to.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext } from '../helpers.js';

test('uses BASE_URL for the Location of a created record', async () => {
  const ctx = await testContext({ config: { baseUrl: 'https://crm.example.com' } });
  try {
    const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Acme' } });
    assert.equal(res.statusCode, 201);
    const id = res.json().data.Record.accountid;
    assert.equal(res.headers.location, `https://crm.example.com/api/record/account/${id}`);
  } finally {
    await ctx.close();
  }
});

test('without BASE_URL, builds the Location from the Host the client used, so PORT=0 gives a working address', async () => {
  const ctx = await testContext({ config: { baseUrl: undefined } });
  try {
    const res = await ctx.request({ method: 'POST', url: '/api/record/contact', headers: { host: '127.0.0.1:41234' }, payload: { fullname: 'Ada Lopez' } });
    assert.equal(res.statusCode, 201);
    const id = res.json().data.Record.contactid;
    assert.equal(res.headers.location, `http://127.0.0.1:41234/api/record/contact/${id}`);
  } finally {
    await ctx.close();
  }
});
