import type { PageMessages } from './messages/index.js';

// How the pages word times and durations.

/** "2026-01-01 12:30 UTC": the same in every language. */
export const when = (unix: number) =>
  unix
    ? new Date(unix * 1000)
        .toISOString()
        .replace('T', ' ')
        .replace(/:\d\d\.\d+Z$/, ' UTC')
    : '—';

/** "3 hours", "5 Tage": the largest whole unit, in the page's language. */
export function duration(m: PageMessages, seconds: number): string {
  const units: [number, 'day' | 'hour' | 'minute'][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) if (seconds >= size) return m.text('format.duration', { unit, n: Math.floor(seconds / size) });
  return m.text('format.duration', { unit: 'second', n: Math.max(0, seconds) });
}
