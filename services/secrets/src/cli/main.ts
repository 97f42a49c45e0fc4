#!/usr/bin/env node
import { ConfigError } from '@hush/common';
import { runCli } from './cli.js';

try {
  const result = await runCli(process.argv.slice(2));
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
} catch (err) {
  process.stderr.write(err instanceof ConfigError ? `hush-secrets: ${err.message}\n` : `hush-secrets: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
}
