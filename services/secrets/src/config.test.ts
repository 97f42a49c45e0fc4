import { fileURLToPath } from 'node:url';
import { deliveryKeys, deliveryOptions } from '@hush/delivery';
import { envExampleDrift, itReadsTheDeliveryKeys } from '@hush/testing';
import { configSchema, readConfig } from './config.js';

test('.env.example lists every key of the configuration schema, and nothing else', () => {
  expect(envExampleDrift(fileURLToPath(new URL('../.env.example', import.meta.url)), configSchema)).toEqual({ undocumented: [], unread: [] });
});

describe('e-mail delivery', () => {
  itReadsTheDeliveryKeys({
    service: 'secrets',
    configKeys: Object.keys(configSchema.shape),
    deliveryKeys: Object.keys(deliveryKeys()),
    deliveryOptionsOf: (env) => deliveryOptions(readConfig(env)),
  });
});
