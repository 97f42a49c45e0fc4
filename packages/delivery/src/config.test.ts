import { ConfigError, loadConfig, redisKeys } from '@hush/common/base';
import { z } from 'zod';
import { deliveryKeys, deliveryOptions, requireDeliveryKeys } from './config.js';

const schema = z.object({ ...redisKeys(), ...deliveryKeys() });
const key = 'ab'.repeat(32);

test('the defaults: queue mode, 8 attempts from 5 s, a relay every second, lost jobs re-queued 5 times after 5 min', () => {
  expect(deliveryOptions(loadConfig(schema, {}))).toEqual({
    mode: 'queue',
    redisUrl: 'redis://127.0.0.1:6379',
    prefix: 'hush',
    sealingKey: undefined,
    attempts: 8,
    backoffMs: 5000,
    relayIntervalMs: 1000,
    requeueAfterSeconds: 300,
    requeueLimit: 5,
    smtp: { url: 'smtp://127.0.0.1:1025', from: 'Hush <no-reply@localhost>', requireTls: false, rejectUnauthorized: true },
  });
});

test('every key reaches its option', () => {
  const config = loadConfig(schema, {
    REDIS_URL: 'redis://redis:6379',
    QUEUE_PREFIX: 'q1',
    MAIL_SEALING_KEY: key,
    MAIL_ATTEMPTS: '3',
    MAIL_BACKOFF_MS: '100',
    RELAY_INTERVAL_MS: '250',
    MAIL_REQUEUE_AFTER: '60',
    MAIL_REQUEUE_LIMIT: '0',
    DELIVERY_MODE: 'inline',
    SMTP_URL: 'smtps://mail.example:465',
    MAIL_FROM: 'Ops <ops@example.com>',
    SMTP_REQUIRE_TLS: 'true',
    SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
  });
  expect(deliveryOptions(config)).toEqual({
    mode: 'inline',
    redisUrl: 'redis://redis:6379',
    prefix: 'q1',
    sealingKey: Buffer.from(key, 'hex'),
    attempts: 3,
    backoffMs: 100,
    relayIntervalMs: 250,
    requeueAfterSeconds: 60,
    requeueLimit: 0,
    smtp: { url: 'smtps://mail.example:465', from: 'Ops <ops@example.com>', requireTls: true, rejectUnauthorized: false },
  });
});

test('queue mode without MAIL_SEALING_KEY is refused, naming the key and the way out', () => {
  const refusal = (() => {
    try {
      requireDeliveryKeys(loadConfig(schema, {}));
    } catch (err) {
      return err;
    }
    return undefined;
  })();
  expect(refusal).toBeInstanceOf(ConfigError);
  expect((refusal as Error).message).toMatch(/^invalid configuration:\n {2}MAIL_SEALING_KEY: required with DELIVERY_MODE=queue .*openssl rand -hex 32.*DELIVERY_MODE=inline/);
});

test('queue mode with the key, and inline mode without it, start', () => {
  expect(() => requireDeliveryKeys(loadConfig(schema, { MAIL_SEALING_KEY: key }))).not.toThrow();
  expect(() => requireDeliveryKeys(loadConfig(schema, { DELIVERY_MODE: 'inline' }))).not.toThrow();
});

test('a bad value is named', () => {
  expect(() => loadConfig(schema, { DELIVERY_MODE: 'smtp' })).toThrow(/DELIVERY_MODE/);
  expect(() => loadConfig(schema, { MAIL_ATTEMPTS: '0' })).toThrow(/MAIL_ATTEMPTS/);
});
