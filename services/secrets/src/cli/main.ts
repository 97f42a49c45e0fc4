#!/usr/bin/env node
import { cliMain } from '@hush/common';
import { runCli } from './cli.js';

await cliMain('hush-secrets', runCli);
