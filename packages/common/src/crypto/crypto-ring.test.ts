import { ConfigError } from '../config/config.js';
import { KeyRing, keyId, sealedKeyId } from './crypto-ring.js';
import { randomBytes, seal } from './crypto.js';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);

describe('KeyRing', () => {
  it('seals under the newest key, tagged with its id, and opens under the ring', () => {
    const ring = KeyRing.of(newKey, [oldKey]);
    const sealed = ring.seal('value', 'row:1');
    expect(sealedKeyId(sealed)).toEqual(keyId(newKey));
    expect(ring.sealedUnderNewest(sealed)).toBe(true);
    expect(ring.open(sealed, 'row:1').toString()).toBe('value');
    expect(() => ring.open(sealed, 'row:2')).toThrow();
  });

  it('opens what an older key sealed, and rewraps it under the newest', () => {
    const before = KeyRing.of(oldKey).derive('purpose');
    const sealed = before.seal('value', 'row:1');
    const after = KeyRing.of(newKey, [oldKey]).derive('purpose');
    expect(after.sealedUnderNewest(sealed)).toBe(false);
    expect(after.open(sealed, 'row:1').toString()).toBe('value');
    const rewrapped = after.rewrap(sealed, 'row:1');
    expect(after.sealedUnderNewest(rewrapped)).toBe(true);
    expect(KeyRing.of(newKey).derive('purpose').open(rewrapped, 'row:1').toString()).toBe('value');
    expect(() => KeyRing.of(newKey).derive('purpose').open(sealed, 'row:1')).toThrow(/not in the ring/);
  });

  it('opens untagged ciphertexts (sealed before rings) under whichever key sealed them', () => {
    const untagged = seal(KeyRing.of(oldKey).derive('purpose').newest.key, 'value', 'row:1');
    const ring = KeyRing.of(newKey, [oldKey]).derive('purpose');
    expect(sealedKeyId(untagged)).toBeUndefined();
    expect(ring.sealedUnderNewest(untagged)).toBe(false);
    expect(ring.open(untagged, 'row:1').toString()).toBe('value');
    expect(() => KeyRing.of(newKey).derive('purpose').open(untagged, 'row:1')).toThrow();
  });

  it('makes MACs under the newest key and accepts them under any', () => {
    const before = KeyRing.of(oldKey);
    const during = KeyRing.of(newKey, [oldKey]);
    const tag = before.mac('input');
    expect(during.verifyMac('input', tag)).toBe(true);
    expect(during.verifyMac('other', tag)).toBe(false);
    expect(KeyRing.of(newKey).verifyMac('input', tag)).toBe(false);
    expect(during.mac('input')).toEqual(KeyRing.of(newKey).mac('input'));
  });

  it('keeps a key given twice once', () => {
    expect(KeyRing.of(newKey, [newKey, oldKey, oldKey]).keys).toHaveLength(2);
    expect(() => KeyRing.of(newKey, [], 'MASTER_KEY')).not.toThrow(ConfigError);
  });
});
