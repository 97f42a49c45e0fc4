import { fileURLToPath } from 'node:url';
import { undocumentedKeys } from '@hush/testing';
import { configSchema } from './config.js';

test('.env.example documents every key of the configuration schema', () => {
  expect(undocumentedKeys(configSchema, fileURLToPath(new URL('../.env.example', import.meta.url)))).toEqual([]);
});
