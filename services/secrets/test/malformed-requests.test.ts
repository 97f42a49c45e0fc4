import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

// Requests the fuzzer (test/faults/test/fuzz.test.ts) found answered 500: each is the caller's
// mistake, so each gets a 4xx in the API's `{ message, code }` shape.

let h: Harness;
let alice: Account;
beforeAll(async () => ({ h, alice } = await startSecretsWithAccount()));
afterAll(() => h.close());

describe('415: a multipart body the form parser cannot read', () => {
  it.each([
    ['multipart/mixed; boundary=x', '--x\r\nContent-Disposition: form-data; name="secret"\r\n\r\nv\r\n--x--\r\n'],
    ['multipart/related; boundary=-', ''],
  ])('%s', async (type, body) => {
    const res = await h.http.post('/api/v1/share').set('Authorization', alice.auth).set('Content-Type', type).send(body);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 415, code: 'unsupported_media_type' });
  });
});
