import { timedOut, withTimeout } from './timeout.js';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('withTimeout', () => {
  it('gives the promise its outcome when it settles in time', async () => {
    await expect(withTimeout(after(1, 'done'), 1000, () => 'late')).resolves.toBe('done');
    await expect(withTimeout(Promise.reject(new Error('refused')), 1000, () => 'late')).rejects.toThrow('refused');
  });

  it("answers the fallback's value, or rejects with what it throws, once the wait runs out", async () => {
    await expect(withTimeout(after(200, 'done'), 5, () => undefined)).resolves.toBeUndefined();
    await expect(withTimeout(after(200, 'done'), 5, timedOut)).rejects.toThrow('timed out');
  });
});
