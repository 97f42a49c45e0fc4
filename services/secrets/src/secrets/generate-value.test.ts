import { GENERATE_ALPHABET, generateValue } from './generate-value.js';

describe('generated values', () => {
  it('use the alphabet without look-alikes, uniformly enough', () => {
    expect(GENERATE_ALPHABET).not.toMatch(/[0Oo1lIi\s'"\\`]/);
    const counts = new Map<string, number>();
    for (const c of Array.from({ length: 200 }, () => generateValue(50)).join('')) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(GENERATE_ALPHABET.length);
    expect(generateValue()).toHaveLength(12);
  });
});
