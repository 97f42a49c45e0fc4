import type { TtlOption } from './share.views.js';

const TTL_PRESETS: TtlOption[] = [
  { seconds: 300, label: '5 minutes' },
  { seconds: 1800, label: '30 minutes' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 4 * 3600, label: '4 hours' },
  { seconds: 86400, label: '1 day' },
  { seconds: 3 * 86400, label: '3 days' },
  { seconds: 7 * 86400, label: '7 days' },
  { seconds: 14 * 86400, label: '14 days' },
  { seconds: 30 * 86400, label: '30 days' },
];

/** The presets within the configured bounds, and the one selected by default (the configured default, or the nearest below it). */
export function ttlChoices(bounds: { min: number; max: number; fallback: number }): { options: TtlOption[]; selected: number } {
  const options = TTL_PRESETS.filter((p) => p.seconds >= bounds.min && p.seconds <= bounds.max);
  if (!options.some((p) => p.seconds === bounds.fallback)) {
    options.push({ seconds: bounds.fallback, label: `${Math.round(bounds.fallback / 60)} minutes` });
    options.sort((a, b) => a.seconds - b.seconds);
  }
  return { options, selected: bounds.fallback };
}
