import { parseBasicAuth, parseBasicClientAuth } from './basic-auth.js';

const basic = (raw: string) => `Basic ${Buffer.from(raw, 'utf8').toString('base64')}`;

describe('parseBasicAuth (RFC 7617, through passport-http)', () => {
  it('splits user-id and password at the colon', () => {
    expect(parseBasicAuth(basic('alice:hush_s3cret-token'))).toEqual({ user: 'alice', password: 'hush_s3cret-token' });
  });

  it("cuts a password at a second colon (passport-http's split; our tokens and secrets never hold one)", () => {
    expect(parseBasicAuth(basic('alice:open:sesame'))).toEqual({ user: 'alice', password: 'open' });
  });

  it('matches the scheme case-insensitively', () => {
    expect(parseBasicAuth(`bAsIc ${Buffer.from('a:b').toString('base64')}`)).toEqual({ user: 'a', password: 'b' });
  });

  it('decodes UTF-8', () => {
    expect(parseBasicAuth(basic('jürgen:pässwort'))).toEqual({ user: 'jürgen', password: 'pässwort' });
  });

  it('accepts base64 without its padding', () => {
    expect(parseBasicAuth(`Basic ${Buffer.from('ab:c').toString('base64').replace(/=+$/, '')}`)).toEqual({ user: 'ab', password: 'c' });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Bearer abc'],
    ['no credentials', 'Basic'],
    ['no colon', basic('alice')],
    ['an empty user-id', basic(':secret')],
    ['an empty password', basic('alice:')],
  ])('is undefined for %s', (_name, header) => {
    expect(parseBasicAuth(header)).toBeUndefined();
  });
});

describe('parseBasicClientAuth (RFC 6749 §2.3.1)', () => {
  it('form-decodes the client id and secret', () => {
    // RFC 6749 §2.3.1: a colon inside either part travels as %3A, so the split above never cuts it.
    const id = encodeURIComponent('client:one/ü');
    const secret = 'a+b%2Bc%3A';
    expect(parseBasicClientAuth(basic(`${id}:${secret}`))).toEqual({ clientId: 'client:one/ü', clientSecret: 'a b+c:' });
  });

  it('is undefined for an empty client id or a bad %-escape', () => {
    expect(parseBasicClientAuth(basic(':secret'))).toBeUndefined();
    expect(parseBasicClientAuth(basic('client%zz:secret'))).toBeUndefined();
    expect(parseBasicClientAuth('Bearer x')).toBeUndefined();
  });
});
