// Jest's global setup: gives the run an id that every worker inherits (the template databases of
// packages/testing/src/databases.ts carry it in their names) and drops the templates that runs
// killed long ago left behind. Another run on the same PostgreSQL (a second checkout, a second
// terminal) has its own id, so its templates stay untouched while it can still be running. It also
// starts the run's Chromium when the run has browser test files (chromium-server.mjs); the global
// teardown closes it.
import { randomBytes } from 'node:crypto';
import { startChromium } from './chromium-server.mjs';
import { dropTemplates, RUN_VARIABLE } from './templates.mjs';

const STALE_AFTER_MS = 12 * 60 * 60 * 1000;

export default async function globalSetup() {
  process.env[RUN_VARIABLE] = `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await dropTemplates((run) => Date.now() - run.startedAt > STALE_AFTER_MS);
  globalThis.hushChromium = await startChromium();
}
