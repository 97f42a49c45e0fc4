import { activeKeyAges, type LoadedKey } from './keys.metrics.js';

const at = (iso: string) => new Date(iso);
const key = (alg: string, status: LoadedKey['status'], createdAt: string, activatedAt: string | null): LoadedKey => ({
  alg,
  status,
  createdAt: at(createdAt),
  activatedAt: activatedAt === null ? null : at(activatedAt),
});

describe('activeKeyAges', () => {
  const now = at('2026-03-01T00:00:00Z');

  it('counts each active key from its promotion, not from when it was published as next', () => {
    const ages = activeKeyAges(
      [key('RS256', 'active', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'), key('ES256', 'active', '2026-02-27T00:00:00Z', '2026-02-28T00:00:00Z')],
      now,
    );
    expect(Object.fromEntries(ages)).toEqual({ RS256: 28 * 86_400, ES256: 86_400 });
  });

  it('counts from creation a key that was created active without a promotion time', () => {
    expect(activeKeyAges([key('RS256', 'active', '2026-02-28T00:00:00Z', null)], now).get('RS256')).toBe(86_400);
  });

  it('leaves out next and retiring keys, and never reports a negative age', () => {
    const ages = activeKeyAges(
      [
        key('RS256', 'next', '2026-01-01T00:00:00Z', null),
        key('ES256', 'retiring', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'),
        key('ES256', 'active', '2026-03-02T00:00:00Z', '2026-03-02T00:00:00Z'),
      ],
      now,
    );
    expect(Object.fromEntries(ages)).toEqual({ ES256: 0 });
  });
});
