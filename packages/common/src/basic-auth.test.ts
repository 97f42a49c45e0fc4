import { parseBasicAuth, parseBasicClientAuth } from './basic-auth.js';

const basic = (raw: string) => `Basic ${Buffer.from(raw, 'utf8').toString('base64')}`;

describe('parseBasicAuth (RFC 7617)', () => {
  it('splits user-id and password at the first colon; the password may hold more', () => {
    expect(parseBasicAuth(basic('alice:open:sesame'))).toEqual({ user: 'alice', password: 'open:sesame' });
  });

  it('matches the scheme case-insensitively, after one or more spaces', () => {
    expect(parseBasicAuth(`bAsIc   ${Buffer.from('a:b').toString('base64')}`)).toEqual({ user: 'a', password: 'b' });
  });

  it('decodes UTF-8 and keeps empty parts for the caller to judge', () => {
    expect(parseBasicAuth(basic('jürgen:pässwort'))).toEqual({ user: 'jürgen', password: 'pässwort' });
    expect(parseBasicAuth(basic(':'))).toEqual({ user: '', password: '' });
  });

  it('accepts base64 without its padding', () => {
    expect(parseBasicAuth(`Basic ${Buffer.from('ab:c').toString('base64').replace(/=+$/, '')}`)).toEqual({ user: 'ab', password: 'c' });
  });

  it.each([
    ['no header', undefined],
    ['another scheme', 'Bearer abc'],
    ['no credentials', 'Basic'],
    ['no colon', basic('alice')],
    ['characters outside base64', 'Basic YWxpY2U6c2VjcmV0!'],
    ['base64url alphabet', 'Basic YWxp-2U6c2_jcmV0'],
    ['two tokens', `Basic ${Buffer.from('a:b').toString('base64')} extra`],
  ])('is undefined for %s', (_name, header) => {
    expect(parseBasicAuth(header)).toBeUndefined();
  });
});

describe('parseBasicClientAuth (RFC 6749 §2.3.1)', () => {
  it('form-decodes the client id and secret', () => {
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
