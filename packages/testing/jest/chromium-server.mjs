// One Chromium for a whole Jest run: the global setup launches it when the run holds a browser test
// file (named `*browser.test.ts`: the sequencer marks the run), and each such file connects to it
// (`connectChromium` in packages/testing/src/chromium.ts) instead of launching a browser of its own.
// A file still gets its own browser contexts, so nothing a page keeps (cookies, storage) crosses
// files; what is shared is the browser's own processes, whose start cost a browser file more CPU
// than most of its tests.
// Debian's chromium-headless-shell (CHROMIUM_PATH to use another Chromium): Chromium's headless
// shell, which Playwright itself runs for headless tests; with no browser window behind its pages,
// its browser process does much less for the same pages than the full browser's. A redirect it
// follows is not offered to Playwright's routes, so a test reads a client's callback off the
// request (`callbackReached`) instead of answering it. The flags this machine needs: no sandbox
// (tests run as root), and none of Chromium's own background connections, which the closed network
// refuses many at a time. Features that started renderer processes costing more CPU than the test
// pages did are off: the spare renderer Chromium keeps started for the next navigation (with it,
// the browser test files started nearly three times as many renderer processes) and, should
// CHROMIUM_PATH name the full browser, its address bar's suggestion popups (two chrome:// pages
// built for every window, so for every new context).
import { chromium } from 'playwright-core';

/** Where the workers find the run's Chromium (`connectChromium` reads it by this name). */
export const ENDPOINT_VARIABLE = 'HUSH_CHROMIUM_ENDPOINT';
const WANTED_VARIABLE = 'HUSH_CHROMIUM_WANTED';

/** Whether `path` names a browser test file. */
export const drivesChromium = (path) => path.endsWith('browser.test.ts');

/** Marks the run as one that holds a browser test file (the sequencer calls it once it knows the files). */
export function wantChromium() {
  process.env[WANTED_VARIABLE] = '1';
}

/** Launches the run's Chromium when it is wanted, its address in ENDPOINT_VARIABLE for the workers; resolves to it, or to undefined. */
export async function startChromium() {
  if (process.env[WANTED_VARIABLE] !== '1') return undefined;
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--in-process-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess',
    ],
  });
  process.env[ENDPOINT_VARIABLE] = server.wsEndpoint();
  return server;
}
