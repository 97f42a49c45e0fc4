import { scrubAttributes, scrubPath, scrubText, scrubUrl, type Attributes } from './scrub.js';

describe('scrubbing what a span records', () => {
  it('keeps the words of a path and replaces what is not one: keys, ids, addresses', () => {
    expect(scrubPath('/api/v1/secret/3k9x0q7m2p5w8r1t4y6u0i9o8p7a6s5d')).toBe('/api/v1/secret/:value');
    expect(scrubPath('/auth/realms/public/protocol/openid-connect/token')).toBe('/auth/realms/public/protocol/openid-connect/token');
    expect(scrubPath('/auth/realms/public/.well-known/openid-configuration')).toBe('/auth/realms/public/.well-known/openid-configuration');
    expect(scrubPath('/auth/admin/realms/public/users/0b6f3c1e-4a7d-4e2b-9f1a-2c3d4e5f6a7b')).toBe('/auth/admin/realms/public/users/:value');
    expect(scrubPath('/users/someone@example.com')).toBe('/users/:value');
  });

  it('keeps route templates, as Express and the fast paths name them', () => {
    expect(scrubPath('/api/v1/secret/:key')).toBe('/api/v1/secret/:key');
  });

  it('drops query strings and fragments, and the credentials of a URL', () => {
    expect(scrubUrl('https://user:pass@hush.example:8443/secret/abcdefghijklmnop0123456789?code=xyz#frag')).toBe('https://hush.example:8443/secret/:value');
    expect(scrubPath('/auth/realms/public/protocol/openid-connect/auth?login_hint=a@b.example')).toBe('/auth/realms/public/protocol/openid-connect/auth');
  });

  it('masks addresses, long tokens and URLs in free text', () => {
    expect(scrubText('550 mailbox ops@example.com unavailable')).toBe('550 mailbox [address] unavailable');
    expect(scrubText('token eyJhbGciOiJFUzI1NiJ9 expired')).toBe('token [value] expired');
    expect(scrubText('fetch http://secrets:3000/secret/abcdefghijklmnop0123456789?x=1 failed')).toBe('fetch http://secrets:3000/secret/:value failed');
    // Words, SQL and identifiers stay readable.
    expect(scrubText('UPDATE outbox SET next_attempt_at = now() WHERE id = $1::uuid')).toBe('UPDATE outbox SET next_attempt_at = now() WHERE id = $1::uuid');
  });

  it('drops headers and query attributes and rewrites URL attributes in place', () => {
    const attributes: Attributes = {
      'url.full': 'http://127.0.0.1:3000/api/v1/secret/abcdefghijklmnop0123456789?passphrase=x',
      'url.path': '/secret/abcdefghijklmnop0123456789',
      'http.target': '/secret/abcdefghijklmnop0123456789?x=1',
      'url.query': 'code=secret',
      'http.request.header.authorization': ['Bearer abc'],
      'http.route': '/api/v1/secret/:key',
      'server.port': 3000,
      'exception.message': 'no such recipient: someone@example.com',
    };
    scrubAttributes(attributes);
    expect(attributes).toEqual({
      'url.full': 'http://127.0.0.1:3000/api/v1/secret/:value',
      'url.path': '/secret/:value',
      'http.target': '/secret/:value',
      'http.route': '/api/v1/secret/:key',
      'server.port': 3000,
      'exception.message': 'no such recipient: [address]',
    });
  });
});
