import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { KeyRing } from '../crypto/crypto-ring.js';
import { createCsrf, CsrfRejectedError, formGuard, isCrossOrigin } from './csrf.js';

const csrf = createCsrf(Buffer.alloc(32, 7));
const request = (headers: Record<string, string>, body?: unknown) => Object.assign(new IncomingMessage(new Socket()), { headers, body });

describe('CSRF tokens', () => {
  it('verify only the token of the same binding and key', () => {
    const token = csrf.token('client\nreveal abc');
    expect(csrf.verify('client\nreveal abc', token)).toBe(true);
    expect(csrf.verify('client\nreveal abd', token)).toBe(false);
    expect(createCsrf(Buffer.alloc(32, 8)).verify('client\nreveal abc', token)).toBe(false);
    for (const sent of [undefined, '', ['x'], 42, `${token}x`]) expect(csrf.verify('client\nreveal abc', sent)).toBe(false);
  });
});

describe('the form guard of pages without a session', () => {
  it('binds the token to the client cookie it sets and to the resource', () => {
    const guard = formGuard(csrf);
    const first = request({ host: 'hush.test' });
    const res = new ServerResponse(first);
    const token = guard.issue(first, res, 'reveal abc');
    const cookie = String(res.getHeader('Set-Cookie')).split(';')[0] as string;
    expect(String(res.getHeader('Set-Cookie'))).toMatch(/^hush_csrf=[\w-]{22}; Path=\/; HttpOnly; SameSite=Strict$/);

    expect(() => guard.check(request({ cookie }, { csrf: token }), 'reveal abc')).not.toThrow();
    expect(() => guard.check(request({ cookie }, { csrf: token }), 'reveal abd')).toThrow(CsrfRejectedError);
    expect(() => guard.check(request({}, { csrf: token }), 'reveal abc')).toThrow(CsrfRejectedError);
    expect(() => guard.check(request({ cookie: 'hush_csrf=AAAAAAAAAAAAAAAAAAAAAA' }, { csrf: token }), 'reveal abc')).toThrow(CsrfRejectedError);
    expect(() => guard.check(request({ cookie }), 'reveal abc')).toThrow(CsrfRejectedError);

    // The same browser coming back keeps its cookie and gets the same token.
    const again = request({ cookie: `other=1; ${cookie}` });
    const res2 = new ServerResponse(again);
    expect(guard.issue(again, res2, 'reveal abc')).toBe(token);
    expect(res2.getHeader('Set-Cookie')).toBeUndefined();
  });
});

describe('the same-origin check', () => {
  it.each([
    [{ host: 'hush.test' }, false],
    [{ host: 'hush.test', 'sec-fetch-site': 'same-origin', origin: 'null' }, false],
    [{ host: 'hush.test', 'sec-fetch-site': 'none' }, false],
    [{ host: 'hush.test', 'sec-fetch-site': 'same-site' }, true],
    [{ host: 'hush.test', 'sec-fetch-site': 'cross-site', origin: 'http://hush.test' }, true],
    [{ host: 'hush.test', origin: 'http://hush.test' }, false],
    [{ host: 'hush.test', origin: 'https://evil.test' }, true],
    [{ host: 'internal:3000', origin: 'https://hush.example' }, false],
    [{ host: 'hush.test', origin: 'null', referer: 'https://evil.test/x' }, true],
    [{ host: 'hush.test', origin: 'null' }, true],
    [{ host: 'hush.test', origin: 'null', referer: 'http://hush.test/account' }, true],
    [{ host: 'hush.test', referer: 'http://hush.test/secret/abc' }, false],
    [{ host: 'hush.test', referer: 'not a url' }, true],
  ])('%o → cross-origin %s', (headers, cross) => {
    expect(isCrossOrigin(request(headers), ['https://hush.example'])).toBe(cross);
  });
});

describe('CSRF tokens across a key rotation (a ring of keys)', () => {
  const [oldKey, newKey] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
  it('are made under the newest key and accepted under any key of the ring, and not once their key is gone', () => {
    const before = createCsrf(KeyRing.of(oldKey)).token('binding');
    const during = createCsrf(KeyRing.of(newKey, [oldKey]));
    expect(during.verify('binding', before)).toBe(true);
    expect(during.verify('other', before)).toBe(false);
    expect(createCsrf(KeyRing.of(newKey)).verify('binding', during.token('binding'))).toBe(true);
    expect(createCsrf(KeyRing.of(newKey)).verify('binding', before)).toBe(false);
    for (const sent of [undefined, '', 42, ['x']]) expect(during.verify('binding', sent)).toBe(false);
  });
});
