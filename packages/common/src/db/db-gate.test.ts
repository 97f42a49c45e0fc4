import { DatabaseGate } from './db-gate.js';

describe('DatabaseGate', () => {
  it('when the queue ahead would be served within the deadline at the pool’s recent pace, then a query may wait', () => {
    const gate = new DatabaseGate(1000, 10);
    for (let i = 0; i < 50; i++) gate.released(20);
    // 100 queued on 10 connections at ~20 ms each: ~200 ms.
    expect(() => gate.admit(0, 100)).not.toThrow();
  });

  it('when the queue ahead would outlast the deadline, then the query is refused at once as the database’s unavailability', () => {
    const gate = new DatabaseGate(1000, 10);
    for (let i = 0; i < 50; i++) gate.released(200);
    // 100 queued on 10 connections at ~200 ms each: ~2 s.
    expect(() => gate.admit(0, 100)).toThrow(expect.objectContaining({ name: 'DependencyShedError', dependency: 'database', code: 'ESHED' }) as Error);
  });

  it('when fewer are queued than the pool has connections, then nothing is refused for load', () => {
    const gate = new DatabaseGate(1000, 10);
    for (let i = 0; i < 50; i++) gate.released(5000);
    expect(() => gate.admit(0, 9)).not.toThrow();
  });

  it('when the circuit is open, then the query is refused until its cool-down ends (at most a second)', () => {
    const gate = new DatabaseGate(5000, 10);
    gate.breaker.timedOut(0);
    expect(() => gate.admit(999, 0)).toThrow(expect.objectContaining({ name: 'DependencyShedError' }) as Error);
    expect(() => gate.admit(1000, 0)).not.toThrow();
  });
});
