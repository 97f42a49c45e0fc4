import { characterCount } from './params.js';

describe('character count (the unit of plan limits)', () => {
  it('counts code points, not UTF-16 units or bytes', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('€€')).toBe(2);
    expect(characterCount('😀😀')).toBe(2);
    expect(characterCount('\ud800x')).toBe(2); // a lone surrogate is one character
  });
});
