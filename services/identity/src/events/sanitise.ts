import type { AdminEvent, UserEvent } from './events.types.js';

/**
 * What PostgreSQL can store of an event, whatever a request put into it. Events carry what callers
 * sent (a client id from an anonymous token request, a username typed on the login page), and a
 * single value PostgreSQL refuses must not hold back the batch it travels in. Rules:
 * - NUL (refused by `text` and `jsonb`) and lone UTF-16 surrogates (refused by `jsonb`, and not
 *   text at all) become U+FFFD, as invalid UTF-8 already has on the way in;
 * - every field has a bound (FIELD, DETAIL, REPRESENTATION characters), at most DETAILS details;
 *   a longer value is cut (never inside a surrogate pair), so a huge field cannot bloat the table;
 * - the event stays recognisable: its type, time and the start of each value are kept.
 */

const FIELD = 255;
const DETAIL = 1024;
const DETAILS = 32;
const REPRESENTATION = 32_768;

// A UTF-16 surrogate without its other half.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `value` cut to at most `max` UTF-16 units (not between the halves of a pair), NULs and lone surrogates replaced by U+FFFD. */
export function storable(value: string, max: number): string {
  let cut = value.length > max ? value.slice(0, max) : value;
  if (cut.length < value.length && /[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.replaceAll('\u0000', '\ufffd').replace(LONE_SURROGATE, '\ufffd');
}

const field = (value: string | undefined, max = FIELD) => (value === undefined ? undefined : storable(value, max));

export function sanitiseUserEvent(e: UserEvent): UserEvent {
  return {
    time: e.time,
    type: e.type,
    clientId: field(e.clientId),
    userId: field(e.userId),
    sessionId: field(e.sessionId),
    ipAddress: field(e.ipAddress),
    error: field(e.error),
    details:
      e.details &&
      Object.fromEntries(
        Object.entries(e.details)
          .slice(0, DETAILS)
          .map(([k, v]) => [storable(k, FIELD), storable(String(v), DETAIL)]),
      ),
  };
}

export function sanitiseAdminEvent(e: AdminEvent): AdminEvent {
  return {
    time: e.time,
    operationType: e.operationType,
    resourceType: storable(e.resourceType, FIELD),
    resourcePath: storable(e.resourcePath, DETAIL),
    authDetails: {
      realmId: storable(e.authDetails.realmId, FIELD),
      clientId: field(e.authDetails.clientId),
      userId: field(e.authDetails.userId),
      ipAddress: field(e.authDetails.ipAddress),
    },
    representation: field(e.representation, REPRESENTATION),
    error: field(e.error),
  };
}
