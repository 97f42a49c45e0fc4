// The test environment of every file: Jest's node environment, and one Chromium per worker for the
// browser tests. Launching Chromium costs about two seconds of CPU, and two dozen files each
// launched their own; now the first browser test a worker runs launches it as a Playwright
// browser server (on demand: a worker that runs none never starts one), and every browser test file
// of that worker connects to it (launchChromium() in packages/testing/src/chromium.ts). Closing
// such a connection closes the contexts the file made, so no file sees another's pages or cookies.
// Playwright ends the browser when the worker exits; a browser that died is launched again.
import { createRequire } from 'node:module';

const fromJest = createRequire(createRequire(import.meta.url).resolve('jest'));
const { TestEnvironment } = fromJest('jest-environment-node');

/** Where a test file finds the worker's Chromium: a function of the launch options that resolves with the server's WebSocket endpoint. */
export const SHARED_CHROMIUM = Symbol.for('hush.sharedChromium');

let server;

async function sharedChromium(options) {
  const running = await server?.catch(() => undefined);
  if (running === undefined || running.process().exitCode !== null || running.process().signalCode !== null) {
    const { chromium } = await import('playwright-core');
    // The options as plain data of this realm (the test file's objects belong to its own).
    server = chromium.launchServer(JSON.parse(JSON.stringify(options)));
  }
  return (await server).wsEndpoint();
}

export default class HushEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global[SHARED_CHROMIUM] = sharedChromium;
  }
}
