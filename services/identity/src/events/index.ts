export { EventRecorder, type EventRecorderOptions, type UnwrittenReason } from './event-recorder.js';
export { EventsRepository } from './events.repository.js';
export { recordProviderEvents } from './provider-events.js';
export { redactRepresentation } from './redact.js';
export { sanitiseAdminEvent } from './sanitise.js';
export { USER_EVENT_TYPES, type AdminEvent, type EventsConfig, type OperationType, type UserEvent, type UserEventType } from './events.types.js';
export { eventsDefaults, sweepOldEvents } from './retention.js';
