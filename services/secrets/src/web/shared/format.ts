import type { MetadataResponse } from '../../secrets/presenter.js';

// How the pages word times, durations and a secret's state.

export const when = (unix: number) =>
  unix
    ? new Date(unix * 1000)
        .toISOString()
        .replace('T', ' ')
        .replace(/:\d\d\.\d+Z$/, ' UTC')
    : '—';

/** "in 3 hours", "in 5 days": the largest whole unit. */
export function duration(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size) {
      const n = Math.floor(seconds / size);
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return `${Math.max(0, seconds)} seconds`;
}

export const STATE_TEXT: Record<MetadataResponse['state'], string> = {
  new: 'Not yet viewed',
  viewed: 'Not yet viewed',
  received: 'Received: viewed by the recipient',
  burned: 'Burned: deleted unread',
  expired: 'Expired unread',
};

export const DELIVERY_TEXT: Record<string, string> = { queued: 'E-mail queued', sent: 'E-mail sent', failed: 'E-mail failed' };
