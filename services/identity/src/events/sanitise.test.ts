import { sanitiseAdminEvent, sanitiseUserEvent, storable } from './sanitise.js';

describe('what PostgreSQL can store of an event', () => {
  it('NUL bytes and lone surrogates become U+FFFD; pairs (emoji) and other text stay', () => {
    expect(storable('a\u0000b', 10)).toBe('a\ufffdb');
    expect(storable('\ud800x\udc00', 10)).toBe('\ufffdx\ufffd');
    expect(storable('ok 😀 é', 10)).toBe('ok 😀 é');
  });

  it('a long value is cut to its bound, never between the halves of a surrogate pair', () => {
    expect(storable('x'.repeat(10), 4)).toBe('xxxx');
    expect(storable('ab😀', 3)).toBe('ab');
    expect(storable('ab😀', 4)).toBe('ab😀');
  });

  it('a user event keeps its type and time; every field and detail is bounded, details at most 32', () => {
    const details = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}\u0000`, 'v'.repeat(5000)]));
    const e = sanitiseUserEvent({ time: 1, type: 'LOGIN_ERROR', clientId: 'c'.repeat(1000), userId: '\ud800', error: 'e\u0000', details });
    expect(e).toMatchObject({ time: 1, type: 'LOGIN_ERROR', userId: '\ufffd', error: 'e\ufffd' });
    expect(e.clientId).toHaveLength(255);
    expect(Object.keys(e.details!)).toHaveLength(32);
    expect(e.details!['k0\ufffd']).toHaveLength(1024);
  });

  it('an admin event keeps what it says; its representation is bounded at 32 KiB', () => {
    const e = sanitiseAdminEvent({
      time: 2,
      operationType: 'CREATE',
      resourceType: 'USER',
      resourcePath: 'users/\u0000',
      authDetails: { realmId: 'public', clientId: 'hush-admin' },
      representation: JSON.stringify({ name: 'r'.repeat(40_000) }),
    });
    expect(e).toMatchObject({ time: 2, operationType: 'CREATE', resourceType: 'USER', resourcePath: 'users/\ufffd', authDetails: { realmId: 'public', clientId: 'hush-admin' } });
    expect(e.representation).toHaveLength(32_768);
  });
});
