import { fileURLToPath } from 'node:url';
import { envExampleDrift } from '@hush/testing';
import { bootstrapEnv } from './cli/cli.inputs.js';
import { configSchema } from './config.js';

test(".env.example lists every key of the configuration schema and of the CLI's bootstrap, and nothing else", () => {
  expect(envExampleDrift(fileURLToPath(new URL('../.env.example', import.meta.url)), configSchema, bootstrapEnv)).toEqual({ undocumented: [], unread: [] });
});
