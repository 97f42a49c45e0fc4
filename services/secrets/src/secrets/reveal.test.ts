import { sameAddress } from './reveal.js';

describe("a recipient-only secret's address match", () => {
  it('ignores case and surrounding blanks, as mail providers do', () => {
    expect(sameAddress('Bob@Example.com', 'bob@example.com')).toBe(true);
    expect(sameAddress(' bob@example.com', 'bob@example.com ')).toBe(true);
  });

  it('is the whole address: no prefix, suffix or look-alike passes', () => {
    for (const other of ['bob@example.co', 'bob@example.com.evil', 'bobby@example.com', 'bob@examp1e.com', '']) expect(sameAddress(other, 'bob@example.com')).toBe(false);
  });
});
