import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium (CHROMIUM_PATH to use another), headless, with the flags this machine needs:
 * no sandbox (tests run as root), and none of Chromium's own background connections, which the
 * closed network refuses many at a time.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The CSP violations Chromium reports on `page`'s console from now on (the list fills as they come). */
export function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content[- ]Security[- ]Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
  });
  return violations;
}

/** The widths every page is checked at: a desktop window and a 360 px phone. */
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } } as const;
export type Width = keyof typeof VIEWPORTS;

/**
 * Shows `page` at each width in each colour scheme and calls `look` there (its assertions and
 * screenshot), then puts the page back at desktop width in the light scheme.
 */
export async function inEveryLook(page: Page, look: (width: Width, scheme: 'light' | 'dark') => Promise<void>): Promise<void> {
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

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * What every page of ours must pass: no serious or critical axe-core violation (axe injected
 * through the DevTools protocol, so the page's CSP is untouched), no sideways scrolling at either
 * width, no CSP violation; with a screenshot per width and colour scheme in `dir`.
 */
export async function inspectPage(page: Page, violations: string[], name: string, dir: string): Promise<void> {
  await page.evaluate(AXE);
  const serious = await page.evaluate<string[]>(
    `axe.run(document).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
  );
  expect({ name, serious }).toEqual({ name, serious: [] });
  await inEveryLook(page, async (width, scheme) => {
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect({ name, width, scrollWidth: scrollWidth <= VIEWPORTS[width].width }).toEqual({ name, width, scrollWidth: true });
    await page.screenshot({ path: join(dir, `${name}-${width}-${scheme}.png`), fullPage: true });
  });
  expect({ name, violations }).toEqual({ name, violations: [] });
}
