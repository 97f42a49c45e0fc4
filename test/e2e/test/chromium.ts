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
