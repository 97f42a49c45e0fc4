import { acceptedStep, codeAt, groupedSecret, newTotpSecret, otpauthUri, TOTP_PERIOD } from './totp.js';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 10);
const step = (t: number) => Math.floor(t / 1000 / TOTP_PERIOD);

describe('TOTP codes', () => {
  const secret = newTotpSecret();

  it('a new secret is 160 bits in base32, shown grouped by four', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(groupedSecret(secret).split(' ')).toHaveLength(8);
  });

  it('the current code is accepted, with its time step', () => {
    expect(acceptedStep(secret, codeAt(secret, NOW), NOW, null)).toBe(step(NOW));
  });

  it('a code of the previous or next step is accepted (clock drift); two steps away is not', () => {
    expect(acceptedStep(secret, codeAt(secret, NOW - 30_000), NOW, null)).toBe(step(NOW) - 1);
    expect(acceptedStep(secret, codeAt(secret, NOW + 30_000), NOW, null)).toBe(step(NOW) + 1);
    expect(acceptedStep(secret, codeAt(secret, NOW - 90_000), NOW, null)).toBeUndefined();
  });

  it('a code of a step already accepted, or of an earlier one, is refused', () => {
    const code = codeAt(secret, NOW);
    expect(acceptedStep(secret, code, NOW, step(NOW))).toBeUndefined();
    expect(acceptedStep(secret, codeAt(secret, NOW - 30_000), NOW, step(NOW))).toBeUndefined();
    expect(acceptedStep(secret, codeAt(secret, NOW + 30_000), NOW, step(NOW))).toBe(step(NOW) + 1);
  });

  it('spaces are ignored; a wrong code, letters or the wrong length are refused', () => {
    const code = codeAt(secret, NOW);
    expect(acceptedStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, NOW, null)).toBe(step(NOW));
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (const typed of [wrong, 'abcdef', code.slice(0, 5), `${code}0`, '']) expect(acceptedStep(secret, typed, NOW, null)).toBeUndefined();
  });

  it('the otpauth URI names the issuer and account', () => {
    const uri = new URL(otpauthUri(secret, 'carol', 'Hush'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Hush');
    expect(decodeURIComponent(uri.pathname)).toContain('carol');
  });
});
