import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Download, type Page } from 'playwright-core';

/**
 * The run's Chromium (packages/testing/jest/chromium-server.mjs), which Jest's global setup starts
 * for a run that holds a browser test file; closing what this returns closes the contexts the file
 * opened and leaves the browser to the other files.
 */
export function connectChromium(): Promise<Browser> {
  const endpoint = process.env.HUSH_CHROMIUM_ENDPOINT;
  if (!endpoint) throw new Error("No Chromium for this file: Jest's global setup starts one for files named *browser.test.ts");
  return chromium.connect(endpoint);
}

/** What a finished download holds, read through Playwright (the browser may run in another process, which keeps the file). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  return buffer(await download.createReadStream());
}

/** The CSP violations Chromium reports on `page`'s console from now on (the list fills as they come). */
export function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content[- ]Security[- ]Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
  });
  return violations;
}

/**
 * Where `act` (a click, a sign-in) sends `page` at a client's callback, one that starts with
 * `callback` and that no server answers: read off the request Chromium makes (the page then shows
 * Chromium's error page, as a browser does when the application is down).
 */
export async function callbackReached(page: Page, callback: string, act: () => Promise<unknown>): Promise<URL> {
  const reached = page.waitForRequest((request) => request.url().startsWith(callback));
  await act();
  const url = new URL((await reached).url());
  // The navigation ends on the error page (the headless shell shows it at chrome-error://).
  await page.waitForURL((shown) => shown.protocol === 'chrome-error:' || shown.href.startsWith(callback));
  return url;
}

/** The widths every page is checked at: a desktop window and a 360 px phone. */
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } } as const;
export type Width = keyof typeof VIEWPORTS;

export type Scheme = 'light' | 'dark';

/**
 * Shows `page` at each width in each colour scheme and calls `look` there (its assertions and
 * screenshot), then puts the page back at desktop width in the light scheme.
 */
export async function inEveryLook(page: Page, look: (width: Width, scheme: Scheme) => Promise<void>): Promise<void> {
  for (const width of Object.keys(VIEWPORTS) as Width[]) {
    await page.setViewportSize(VIEWPORTS[width]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await look(width, scheme);
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * The looks that are photographed: the desktop in the light scheme and the phone in the dark one,
 * so both widths and both schemes are on record with half the screenshots, which are a large part
 * of the CPU the browser tests cost Chromium; HUSH_SCREENSHOTS=all photographs every look. Every
 * look is checked either way.
 */
export function photographed(width: Width, scheme: Scheme): boolean {
  return process.env.HUSH_SCREENSHOTS === 'all' || (width === 'desktop') === (scheme === 'light');
}

/**
 * A full-page screenshot of `page` in the look it shows, as `dir`/`name`-`width`-`scheme`.png, when
 * `photographed` picks that look.
 */
export async function screenshot(page: Page, dir: string, name: string, width: Width, scheme: Scheme): Promise<void> {
  if (!photographed(width, scheme)) return;
  await page.screenshot({ path: join(dir, `${name}-${width}-${scheme}.png`), fullPage: true });
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** How strictly `inspectPage` reads axe-core: serious and critical violations at desktop width (the default), or every violation in every look. */
export interface InspectOptions {
  everyViolation?: boolean;
}

const AXE_FINDINGS = (impacts: string) =>
  `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => ${impacts}).map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`;

/**
 * What every page of ours must pass: no serious or critical axe-core violation (with
 * `everyViolation`, none of any impact at any width or scheme; axe injected through the DevTools
 * protocol, so the page's CSP is untouched), no sideways scrolling at either width, no CSP
 * violation; with the screenshots `screenshot` takes (desktop light, phone dark) in `dir`.
 */
export async function inspectPage(page: Page, violations: string[], name: string, dir: string, options: InspectOptions = {}): Promise<void> {
  await page.evaluate(AXE);
  if (!options.everyViolation) {
    const serious = await page.evaluate<string[]>(AXE_FINDINGS(`v.impact === 'serious' || v.impact === 'critical'`));
    expect({ name, serious }).toEqual({ name, serious: [] });
  }
  await inEveryLook(page, async (width, scheme) => {
    if (options.everyViolation) {
      const found = await page.evaluate<string[]>(AXE_FINDINGS('true'));
      expect({ name, width, scheme, found }).toEqual({ name, width, scheme, found: [] });
    }
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect({ name, width, scrollWidth: scrollWidth <= VIEWPORTS[width].width }).toEqual({ name, width, scrollWidth: true });
    await screenshot(page, dir, name, width, scheme);
  });
  expect({ name, violations }).toEqual({ name, violations: [] });
}

/** A fresh browser of a browser test: its own context (no cookies, no session), one page, the CSP violations that page reports. */
export interface BrowserTab {
  context: BrowserContext;
  page: Page;
  violations: string[];
  close: () => Promise<void>;
}

/** What a browser test file works with once `browserTests`' set-up has run. */
export interface BrowserTests {
  /** The run's Chromium, connected to once for the file. */
  readonly browser: Browser;
  /** The file's screenshots folder (test-artifacts/<folder>/). */
  readonly artifacts: string;
  /** A fresh browser at desktop width (`options` as Playwright's newContext takes them). */
  newTab(options?: BrowserContextOptions): Promise<BrowserTab>;
  /** `inspectPage` with the screenshots in this file's folder. */
  inspect(page: Page, violations: string[], name: string, options?: InspectOptions): Promise<void>;
}

/** Something a browser test file started and closes once its tests are done. */
export interface Closable {
  close(): Promise<void>;
}

/** Hands what `start` has just started to `browserTests`, which closes it after the file's tests (or after a start that failed later on); returns it. */
export type Own = <T extends Closable>(started: T) => T;

/**
 * The set-up every browser test file shares, registered as its beforeAll and afterAll: the
 * screenshots folder test-artifacts/`folder`/, Chromium, and the system under test: `start`
 * starts the services and their data, handing each thing to `own` as soon as it runs. After the
 * tests, and after a `start` that failed half-way too, the connection to the browser is closed,
 * then what was owned, the last first.
 */
export function browserTests(folder: string, start: (own: Own) => Promise<void>, timeoutMs = 60_000): BrowserTests {
  const artifacts = join(process.cwd(), 'test-artifacts', folder);
  let browser: Browser | undefined;
  const owned: Closable[] = [];
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    browser = await connectChromium();
    await start((started) => {
      owned.push(started);
      return started;
    });
  }, timeoutMs);
  afterAll(async () => {
    const closing = [browser, ...owned.reverse()];
    browser = undefined;
    owned.length = 0;
    const failures: unknown[] = [];
    for (const each of closing) await each?.close().catch((err: unknown) => failures.push(err));
    if (failures.length > 0) throw failures[0];
  });
  const connected = (): Browser => {
    if (!browser) throw new Error('the browser is connected to in beforeAll');
    return browser;
  };
  return {
    get browser() {
      return connected();
    },
    artifacts,
    async newTab(options = {}) {
      const context = await connected().newContext({ viewport: VIEWPORTS.desktop, ...options });
      const page = await context.newPage();
      return { context, page, violations: cspViolations(page), close: () => context.close() };
    },
    inspect: (page, violations, name, options) => inspectPage(page, violations, name, artifacts, options),
  };
}
