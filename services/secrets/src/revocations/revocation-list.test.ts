import { decodeRevocationMessage, encodeRevocation, revocationKey } from '@hush/common';
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

  it('prune drops what no longer matters', () => {
    const list = new RevocationList();
    list.add({ kind: 'token', key: 'a' }, 100);
    list.add({ kind: 'client', clientId: 'app', notBefore: 1 }, 300);
    expect(list.prune(200)).toBe(1);
  });

  it('events travel as `<until> <member>`; anything else is ignored', () => {
    const member = encodeRevocation({ kind: 'client', clientId: 'my.app-1', notBefore: 42 });
    expect(decodeRevocationMessage(`99 ${member}`)).toEqual({ until: 99, revocation: { kind: 'client', clientId: 'my.app-1', notBefore: 42 } });
    for (const bad of ['', '99', 'x token:a', '99 nope:a', '99 token:', '99 client:x:app']) expect(decodeRevocationMessage(bad)).toBeUndefined();
  });
});
