import { addressKey, decodeRevocationMessage, encodeRevocation, revocationKey } from '@hush/common';
import { RevocationList } from './revocation-list.js';

describe('RevocationList', () => {
  it('refuses a revoked jti or grant, by their hashes; other tokens pass', () => {
    const list = new RevocationList();
    list.add({ kind: 'token', key: revocationKey('jti-1') }, 2000);
    list.add({ kind: 'grant', key: revocationKey('grant-1') }, 2000);
    expect(list.revokes({ jti: 'jti-1', client_id: 'app' })).toBe(true);
    expect(list.revokes({ jti: 'jti-2', grant_id: 'grant-1', client_id: 'app' })).toBe(true);
    expect(list.revokes({ jti: 'jti-2', grant_id: 'grant-2', client_id: 'app' })).toBe(false);
  });

  it('a client not-before refuses its tokens issued up to then, not later ones (the latest not-before wins)', () => {
    const list = new RevocationList();
    list.add({ kind: 'client', clientId: 'app', notBefore: 100 }, 2000);
    list.add({ kind: 'client', clientId: 'app', notBefore: 90 }, 2000);
    expect(list.revokes({ client_id: 'app', iat: 100 })).toBe(true);
    expect(list.revokes({ client_id: 'app', iat: 101 })).toBe(false);
    expect(list.revokes({ client_id: 'app' })).toBe(true);
    expect(list.revokes({ client_id: 'other', iat: 50 })).toBe(false);
  });

  it('an address change: tokens issued up to then prove only the address verified since (none: nothing); no token is revoked', () => {
    const list = new RevocationList();
    const sub = '8f0c5a52-4a44-4c1e-9d5e-0a4f3b7c2d11';
    list.add({ kind: 'address', sub, notBefore: 100, proves: null }, 2000);
    expect(list.withdrawsAddress({ sub, iat: 100, email: 'old@example.com' })).toBe(true);
    expect(list.withdrawsAddress({ sub, email: 'old@example.com' })).toBe(true);
    expect(list.withdrawsAddress({ sub, iat: 101, email: 'new@example.com' })).toBe(false);
    expect(list.withdrawsAddress({ sub: 'someone-else', iat: 1, email: 'old@example.com' })).toBe(false);
    expect(list.revokes({ jti: 'j', iat: 100, client_id: 'app' })).toBe(false);

    // Later, an administrator verifies a new address: a token of that second claiming it counts, the old one still not.
    list.add({ kind: 'address', sub, notBefore: 120, proves: addressKey('New@Example.com') }, 2000);
    expect(list.withdrawsAddress({ sub, iat: 120, email: 'new@example.com' })).toBe(false);
    expect(list.withdrawsAddress({ sub, iat: 110, email: 'old@example.com' })).toBe(true);
    // An older event arriving late changes nothing; two in one second that disagree prove nothing.
    list.add({ kind: 'address', sub, notBefore: 100, proves: null }, 2000);
    expect(list.withdrawsAddress({ sub, iat: 120, email: 'new@example.com' })).toBe(false);
    list.add({ kind: 'address', sub, notBefore: 120, proves: addressKey('other@example.com') }, 2000);
    expect(list.withdrawsAddress({ sub, iat: 120, email: 'new@example.com' })).toBe(true);
  });

  it('prune drops what no longer matters', () => {
    const list = new RevocationList();
    list.add({ kind: 'token', key: 'a' }, 100);
    list.add({ kind: 'client', clientId: 'app', notBefore: 1 }, 300);
    list.add({ kind: 'address', sub: 'u', notBefore: 1, proves: null }, 150);
    expect(list.prune(200)).toBe(1);
  });

  it('events travel as `<until> <member>`; anything else is ignored', () => {
    const member = encodeRevocation({ kind: 'client', clientId: 'my.app-1', notBefore: 42 });
    expect(decodeRevocationMessage(`99 ${member}`)).toEqual({ until: 99, revocation: { kind: 'client', clientId: 'my.app-1', notBefore: 42 } });
    const address = { kind: 'address', sub: '8f0c5a52-4a44-4c1e-9d5e-0a4f3b7c2d11', notBefore: 42, proves: addressKey('a@example.com') } as const;
    expect(decodeRevocationMessage(`99 ${encodeRevocation(address)}`)).toEqual({ until: 99, revocation: address });
    expect(decodeRevocationMessage(`99 ${encodeRevocation({ ...address, proves: null })}`)).toEqual({ until: 99, revocation: { ...address, proves: null } });
    for (const bad of ['', '99', 'x token:a', '99 nope:a', '99 token:', '99 client:x:app', '99 address:x:u:', '99 address:42::k'])
      expect(decodeRevocationMessage(bad)).toBeUndefined();
  });
});
