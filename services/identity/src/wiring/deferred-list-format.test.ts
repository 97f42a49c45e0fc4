import { importDeferringListFormat } from './deferred-list-format.js';

describe('importDeferringListFormat', () => {
  it('when an import builds a list formatter, then it formats as the real one and the real class is back afterwards', async () => {
    const Real = Intl.ListFormat;
    const [conjunction, disjunction] = await importDeferringListFormat(async () => [
      new Intl.ListFormat('en', { type: 'conjunction' }),
      new Intl.ListFormat('en', { type: 'disjunction' }),
    ]);

    expect(Intl.ListFormat).toBe(Real);
    expect(conjunction.format(["'a'", "'b'", "'c'"])).toBe(new Real('en', { type: 'conjunction' }).format(["'a'", "'b'", "'c'"]));
    expect(disjunction.format(['a', 'b'])).toBe('a or b');
    expect(disjunction.formatToParts(['a', 'b'])).toEqual(new Real('en', { type: 'disjunction' }).formatToParts(['a', 'b']));
    expect(conjunction.resolvedOptions()).toEqual(new Real('en', { type: 'conjunction' }).resolvedOptions());
  });

  it('when the import fails, then the real class is back and the failure is the caller’s', async () => {
    const Real = Intl.ListFormat;

    await expect(importDeferringListFormat(() => Promise.reject(new Error('no module')))).rejects.toThrow('no module');

    expect(Intl.ListFormat).toBe(Real);
  });
});
