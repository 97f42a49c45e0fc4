/** A lifetime the share and request forms offer, in seconds (its words: `duration`). */
export interface TtlOption {
  seconds: number;
}

const TTL_PRESETS = [300, 1800, 3600, 4 * 3600, 86400, 3 * 86400, 7 * 86400, 14 * 86400, 30 * 86400];

/** The presets within the configured bounds, and the one selected by default (the configured default, or the nearest below it). */
export function ttlChoices(bounds: { min: number; max: number; fallback: number }): { options: TtlOption[]; selected: number } {
  const seconds = TTL_PRESETS.filter((p) => p >= bounds.min && p <= bounds.max);
  if (!seconds.includes(bounds.fallback)) seconds.push(bounds.fallback);
  return { options: seconds.sort((a, b) => a - b).map((s) => ({ seconds: s })), selected: bounds.fallback };
}
