import { usageError } from './errors.ts';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** A lifetime as a person writes it: seconds (`3600`) or a number and a unit (`90s`, `30m`, `12h`, `7d`). */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d{1,9})([smhd]?)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * (UNITS[match[2] || 's'] as number) : NaN;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) throw usageError(`${flag} takes a lifetime such as 3600, 90s, 30m, 12h or 7d, not ${JSON.stringify(text)}.`);
  return seconds;
}
