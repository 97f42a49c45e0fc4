import { planOf } from './plans.js';

describe('plans', () => {
  it('fall back to the default for unknown names', () => {
    expect(planOf('pro', 'basic').maxSecretLength).toBe(10000);
    expect(planOf('gone', 'standard').name).toBe('standard');
    expect(planOf(undefined, 'basic').maxSecretLength).toBe(1000);
  });
});
