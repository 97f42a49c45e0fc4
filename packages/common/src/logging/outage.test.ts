import { Writable } from 'node:stream';
import { DependencyUnavailableError, toDomainError, unavailableDependency } from '../http/errors.js';
import { createLogger } from './logger.js';
import { outageLog } from './outage.js';

function capturingLogger(name: string) {
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  return { logger: createLogger({ name, level: 'info', destination }), logs };
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('unavailableDependency', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), 'database'],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET'), 'database'],
    ["knex's pool timeout", Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }), 'database'],
    ["pg's client-side query timeout, after knex's statement prefix", new Error('select 1 - Query read timeout'), 'database'],
    ['a connection the server closed', new Error('select 1 - Connection terminated unexpectedly'), 'database'],
    ["pg's connect timeout", new Error('timeout expired'), 'database'],
    ['statement_timeout (57014)', withCode('canceling statement due to statement timeout', '57014'), 'database'],
    ['a server shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01'), 'database'],
    ['both addresses of localhost refused', Object.assign(new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')]), { code: undefined }), 'database'],
    ["ioredis's command timeout", new Error('Command timed out'), 'redis'],
    ['ioredis offline without a queue', new Error("Stream isn't writeable and enableOfflineQueue options is false"), 'redis'],
  ])('recognises %s', (_case, err, dependency) => {
    expect(unavailableDependency(err)).toBe(dependency);
    const known = toDomainError(err);
    expect(known).toBeInstanceOf(DependencyUnavailableError);
    expect(known).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'Retry-After': expect.stringMatching(/^[1-9]\d*$/) as string } });
  });

  it.each([
    ['a bug', new TypeError('x is undefined')],
    ['a constraint violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a non-error', 'ECONNREFUSED'],
  ])('leaves %s alone', (_case, err) => {
    expect(unavailableDependency(err)).toBeUndefined();
    expect(toDomainError(err)).toBeUndefined();
  });
});

describe('outageLog', () => {
  it('logs the first failure with its code, counts the rest, and logs the recovery once', () => {
    const { logger, logs } = capturingLogger('outage-test');
    const log = outageLog(logger, 'database');
    expect(outageLog(logger, 'database')).toBe(log);
    for (let i = 0; i < 50; i++) log.failed(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'));
    log.recovered();
    log.recovered();
    const lines = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 50, dependency: 'database', code: 'ECONNREFUSED', msg: 'database unavailable' });
    expect(lines[0]).not.toHaveProperty('stack');
    expect(lines[1]).toMatchObject({ level: 40, dependency: 'database', failures: 50, msg: 'database available again' });
    log.failed(new Error('select 1 - Query read timeout'));
    expect(JSON.parse(logs[2] as string)).toMatchObject({ code: 'ETIMEDOUT', reason: 'Query read timeout' });
  });
});

describe('the logger', () => {
  it("shows an error's code, and still blanks an authorization code among request parameters", () => {
    const { logger, logs: lines } = capturingLogger('redact-test');
    logger.error({ err: withCode('connect ECONNREFUSED', 'ECONNREFUSED'), query: { code: 'authz-code-value' } }, 'failed');
    const line = JSON.parse(lines[0] as string) as { err: { code: string }; query: { code: string } };
    expect(line.err.code).toBe('ECONNREFUSED');
    expect(line.query.code).toBe('[redacted]');
  });
});
