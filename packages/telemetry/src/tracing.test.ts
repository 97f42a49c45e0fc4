import { outsideTrace, currentTraceId, currentTraceparent, flushTraces, nameServerSpan, traceLogMixin, tracingOn, withSpan } from './tracing.js';

describe('without tracing (nothing installed)', () => {
  it('runs the work as it is and knows no trace', async () => {
    expect(tracingOn()).toBe(false);
    await expect(withSpan('work', { role: 'internal' }, () => Promise.resolve(42))).resolves.toBe(42);
    await expect(withSpan('work', {}, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(currentTraceparent()).toBeUndefined();
    expect(currentTraceId()).toBeUndefined();
    expect(traceLogMixin()).toBeUndefined();
    expect(() => nameServerSpan('GET', '/x')).not.toThrow();
    expect(outsideTrace(() => 7)).toBe(7);
    await expect(flushTraces()).resolves.toBeUndefined();
  });
});
