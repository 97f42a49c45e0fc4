import type { Config } from '../config.js';
import type { EventRecorder } from './event-recorder.js';
import type { EventsRepository } from './events.repository.js';
import type { EventsConfig } from './events.types.js';

/** The realm's events settings until an administrator changes them (the admin API's events config). */
export const eventsDefaults = (config: Pick<Config, 'EVENTS_ENABLED' | 'ADMIN_EVENTS_ENABLED' | 'ADMIN_EVENTS_DETAILS_ENABLED' | 'EVENTS_EXPIRATION'>): EventsConfig => ({
  eventsEnabled: config.EVENTS_ENABLED,
  adminEventsEnabled: config.ADMIN_EVENTS_ENABLED,
  adminEventsDetailsEnabled: config.ADMIN_EVENTS_DETAILS_ENABLED,
  enabledEventTypes: [],
  eventsExpiration: config.EVENTS_EXPIRATION || null,
});

/** Retention: events older than the realm's eventsExpiration go, in batches of `batchSize`; how many went. */
export async function sweepOldEvents(
  events: Pick<EventRecorder, 'settings'>,
  repository: Pick<EventsRepository, 'deleteOlderThan'>,
  batchSize: number,
  signal?: AbortSignal,
): Promise<number> {
  const expiration = events.settings().eventsExpiration;
  return expiration ? repository.deleteOlderThan(expiration, batchSize, signal) : 0;
}
