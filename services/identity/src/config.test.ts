import { fileURLToPath } from 'node:url';
import { deliveryKeys, deliveryOptions } from '@hush/delivery';
import { envExampleDrift, itReadsTheDeliveryKeys } from '@hush/testing';
import { bootstrapEnv } from './cli/cli.inputs.js';
import { configSchema, readConfig } from './config.js';

test(".env.example lists every key of the configuration schema and of the CLI's bootstrap, and nothing else", () => {
  expect(envExampleDrift(fileURLToPath(new URL('../.env.example', import.meta.url)), configSchema, bootstrapEnv)).toEqual({ undocumented: [], unread: [] });
});

describe('e-mail delivery', () => {
  itReadsTheDeliveryKeys({
    service: 'identity',
    configKeys: Object.keys(configSchema.shape),
    deliveryKeys: Object.keys(deliveryKeys()),
    deliveryOptionsOf: (env) => deliveryOptions(readConfig(env)),
  });
});
