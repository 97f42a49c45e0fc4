import { Gauge, type Registry } from 'prom-client';
import type { SigningKeyRow } from './keys.repository.js';

/** What the gauge needs of a key the process loaded. */
export type LoadedKey = Pick<SigningKeyRow, 'alg' | 'status' | 'createdAt' | 'activatedAt'>;

/**
 * Seconds each algorithm's active key has been signing at `now`: since it was promoted (or
 * created active, for keys from before `activated_at` was kept).
 */
export function activeKeyAges(keys: readonly LoadedKey[], now: Date): Map<string, number> {
  const ages = new Map<string, number>();
  for (const key of keys) {
    if (key.status !== 'active') continue;
    const since = key.activatedAt ?? key.createdAt;
    ages.set(key.alg, Math.max(0, (now.getTime() - since.getTime()) / 1000));
  }
  return ages;
}

/**
 * `hush_signing_key_age_seconds{alg}`, read at each scrape from the keys the process signs with
 * (no database query): the alert on a rotation that has stopped watches it.
 */
export function signingKeyAgeGauge(registers: Registry[], loaded: () => readonly LoadedKey[]): Gauge<'alg'> {
  return new Gauge({
    name: 'hush_signing_key_age_seconds',
    help: 'Seconds the active signing key of each algorithm has been signing',
    labelNames: ['alg'],
    registers,
    collect() {
      this.reset();
      for (const [alg, seconds] of activeKeyAges(loaded(), new Date())) this.set({ alg }, seconds);
    },
  });
}
