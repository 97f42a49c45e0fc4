import { hkdfSync } from 'node:crypto';
import { deriveKey, randomBytes } from './crypto.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
/** Bytes from `first` to `last` inclusive, as the RFC's test case 2 writes its inputs. */
const range = (first: number, last: number) => Buffer.from(Array.from({ length: last - first + 1 }, (_, i) => first + i));

// RFC 5869, Appendix A, test cases 1 to 3 (HKDF with SHA-256).
const vectors = [
  {
    name: 'A.1 basic',
    ikm: hex('0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b'),
    salt: hex('000102030405060708090a0b0c'),
    info: hex('f0f1f2f3f4f5f6f7f8f9'),
    okm: hex('3cb25f25faacd57a90434f64d0362f2a 2d2d0a90cf1a5a4c5db02d56ecc4c5bf 34007208d5b887185865'),
  },
  {
    name: 'A.2 longer inputs and outputs',
    ikm: range(0x00, 0x4f),
    salt: range(0x60, 0xaf),
    info: range(0xb0, 0xff),
    okm: hex(
      'b11e398dc80327a1c8e7f78c596a4934 4f012eda2d4efad8a050cc4c19afa97c 59045a99cac7827271cb41c65e590e09 da3275600c2f09b8367793a9aca3db71 cc30c58179ec3e87c14c01d5c1f3434f 1d87',
    ),
  },
  {
    name: 'A.3 zero-length salt and info',
    ikm: hex('0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b'),
    salt: Buffer.alloc(0),
    info: Buffer.alloc(0),
    okm: hex('8da4e775a563c18f715f802a063c5a31 b8a11f5c5ee1879ec3454e5f3c738d2d 9d201395faa4b61a96c8'),
  },
];

describe('deriveKey (HKDF-SHA256)', () => {
  it.each(vectors)('matches RFC 5869 $name', ({ ikm, salt, info, okm }) => {
    expect(deriveKey(ikm, info, salt, okm.length).toString('hex')).toBe(okm.toString('hex'));
  });

  it('gives the same 32-byte keys as node:crypto hkdfSync, with and without salt', () => {
    const root = hex('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff');
    for (const salt of ['', 'a salt', hex('0badc0de')]) {
      expect(deriveKey(root, 'hush purpose v1', salt)).toEqual(Buffer.from(hkdfSync('sha256', root, salt, 'hush purpose v1', 32)));
    }
  });

  it('refuses lengths HKDF cannot produce', () => {
    expect(() => deriveKey(Buffer.alloc(32), 'x', '', 0)).toThrow(RangeError);
    expect(() => deriveKey(Buffer.alloc(32), 'x', '', 255 * 32 + 1)).toThrow(RangeError);
  });
});

describe('randomBytes (pooled)', () => {
  it('gives the size asked for, small and large, and never the same bytes twice', () => {
    const seen = new Set<string>();
    // Several refills of the 4 KiB buffer, with draws that straddle its end.
    for (let i = 0; i < 2000; i++) {
      const size = [12, 20, 31, 32][i % 4]!;
      const bytes = randomBytes(size);
      expect(bytes).toHaveLength(size);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(2000);
    expect(randomBytes(0)).toHaveLength(0);
    expect(randomBytes(1000)).toHaveLength(1000);
  });

  it('hands out buffers of their own: changing one changes no later draw', () => {
    const first = randomBytes(16);
    first.fill(0);
    const next = Array.from({ length: 300 }, () => randomBytes(16));
    expect(next.some((b) => b.equals(Buffer.alloc(16)))).toBe(false);
  });

  it('looks uniform: every byte value turns up in 64 KiB of draws, none far off its share', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 4096; i++) for (const byte of randomBytes(16)) counts[byte]!++;
    // 65,536 bytes: 256 per value expected; a fair source stays within ±40% with overwhelming odds.
    expect(Math.min(...counts)).toBeGreaterThan(256 * 0.6);
    expect(Math.max(...counts)).toBeLessThan(256 * 1.4);
  });
});
