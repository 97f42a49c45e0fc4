import { fileURLToPath } from 'node:url';
import { envExampleDrift } from '@hush/testing';
import { configSchema } from './config.js';

test('.env.example lists every key of the configuration schema, and nothing else', () => {
  expect(envExampleDrift(fileURLToPath(new URL('../.env.example', import.meta.url)), configSchema)).toEqual({ undocumented: [], unread: [] });
});
