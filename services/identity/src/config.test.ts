import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { deliveryKeys, deliveryOptions } from '@hush/delivery';
import { envExampleDrift, startMain } from '@hush/testing';
import { bootstrapEnv } from './cli/cli.inputs.js';
import { configSchema, readConfig } from './config.js';

test(".env.example lists every key of the configuration schema and of the CLI's bootstrap, and nothing else", () => {
  expect(envExampleDrift(fileURLToPath(new URL('../.env.example', import.meta.url)), configSchema, bootstrapEnv)).toEqual({ undocumented: [], unread: [] });
});

test('reads the e-mail delivery keys of packages/delivery, with their defaults', () => {
  expect(Object.keys(configSchema.shape)).toEqual(expect.arrayContaining(Object.keys(deliveryKeys())));
  const config = readConfig({ MASTER_KEY: randomBytes(32).toString('hex') });
  expect(deliveryOptions(config)).toMatchObject({ mode: 'queue', attempts: 8, backoffMs: 5000, relayIntervalMs: 1000, requeueAfterSeconds: 300, requeueLimit: 5 });
});

test('refuses to start in queue mode without MAIL_SEALING_KEY, naming it', async () => {
  const refused = startMain('identity', { PATH: process.env['PATH'], MASTER_KEY: randomBytes(32).toString('hex'), DELIVERY_MODE: 'queue' });
  expect(await refused.exited).toBe(1);
  expect(refused.stderr()).toMatch(/MAIL_SEALING_KEY: required with DELIVERY_MODE=queue/);
});
