import { CircuitBreaker } from './circuit-breaker.js';

describe('CircuitBreaker', () => {
  it('when closed, then every call goes through', () => {
    const breaker = new CircuitBreaker(1000, 5000);
    expect([breaker.allows(0), breaker.allows(1), breaker.isOpen]).toEqual([true, true, false]);
  });

  it('when a call timed out, then calls are refused for the cool-down, then one trial goes through at a time', () => {
    const breaker = new CircuitBreaker(1000, 5000);
    breaker.timedOut(100);
    expect(breaker.isOpen).toBe(true);
    expect(breaker.allows(500)).toBe(false);
    expect(breaker.allows(1100)).toBe(true);
    expect(breaker.allows(1200)).toBe(false);
  });

  it('when the trial succeeds, then the circuit closes', () => {
    const breaker = new CircuitBreaker(1000, 5000);
    breaker.timedOut(0);
    breaker.allows(1000);
    breaker.succeeded();
    expect([breaker.isOpen, breaker.allows(1001), breaker.allows(1002)]).toEqual([false, true, true]);
  });

  it('when the trial times out too, then a new cool-down starts', () => {
    const breaker = new CircuitBreaker(1000, 5000);
    breaker.timedOut(0);
    breaker.allows(1000);
    breaker.timedOut(2000);
    expect(breaker.allows(2500)).toBe(false);
    expect(breaker.allows(3000)).toBe(true);
  });

  it('when a trial is never answered, then another is let through once its own timeout has passed', () => {
    const breaker = new CircuitBreaker(1000, 5000);
    breaker.timedOut(0);
    expect(breaker.allows(1000)).toBe(true);
    expect(breaker.allows(5999)).toBe(false);
    expect(breaker.allows(6000)).toBe(true);
  });
});
