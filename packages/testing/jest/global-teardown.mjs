// Jest's global teardown: closes the run's Chromium, if it had one, and drops the template databases
// this run built (global-setup.mjs).
import { dropTemplates, RUN_VARIABLE } from './templates.mjs';

export default async function globalTeardown() {
  await globalThis.hushChromium?.close();
  const id = process.env[RUN_VARIABLE];
  await dropTemplates((run) => run.id === id);
}
