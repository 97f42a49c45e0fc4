// Jest's global teardown: drops the template databases this run built (global-setup.mjs).
import { dropTemplates, RUN_VARIABLE } from './templates.mjs';

export default async function globalTeardown() {
  const id = process.env[RUN_VARIABLE];
  await dropTemplates((run) => run.id === id);
}
