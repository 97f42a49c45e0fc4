/** Keycloak's user event types that Hush records. */
export const USER_EVENT_TYPES = [
  'LOGIN',
  'LOGIN_ERROR',
  'CODE_TO_TOKEN',
  'CODE_TO_TOKEN_ERROR',
  'CLIENT_LOGIN',
  'CLIENT_LOGIN_ERROR',
  'REFRESH_TOKEN',
  'REFRESH_TOKEN_ERROR',
  'LOGOUT',
  'LOGOUT_ERROR',
  'UPDATE_PASSWORD',
  'UPDATE_TOTP',
  'REMOVE_TOTP',
  'UPDATE_CREDENTIAL',
  'REMOVE_CREDENTIAL',
  'UPDATE_PASSWORD_ERROR',
  'UPDATE_PROFILE',
  'UPDATE_EMAIL',
  'REVOKE_GRANT',
  'SEND_RESET_PASSWORD',
  'SEND_RESET_PASSWORD_ERROR',
  'RESET_PASSWORD',
  'EXECUTE_ACTIONS',
  'EXECUTE_ACTION_TOKEN',
  'REGISTER',
  'SEND_VERIFY_EMAIL',
  'VERIFY_EMAIL',
] as const;
export type UserEventType = (typeof USER_EVENT_TYPES)[number];

export interface UserEvent {
  /** Epoch milliseconds. */
  time: number;
  type: UserEventType;
  clientId?: string | undefined;
  userId?: string | undefined;
  sessionId?: string | undefined;
  ipAddress?: string | undefined;
  error?: string | undefined;
  details?: Record<string, string> | undefined;
}

export type OperationType = 'CREATE' | 'UPDATE' | 'DELETE' | 'ACTION';

export interface AdminEvent {
  time: number;
  operationType: OperationType;
  resourceType: string;
  /** Relative to the realm, without a leading slash: `clients/<id>`. */
  resourcePath: string;
  authDetails: { realmId: string; clientId?: string | undefined; userId?: string | undefined; ipAddress?: string | undefined };
  /** The request's representation as JSON text, every secret and password removed; absent unless details are on. */
  representation?: string | undefined;
  error?: string | undefined;
}

/** Keycloak's RealmEventsConfigRepresentation, the part Hush honours. */
export interface EventsConfig {
  eventsEnabled: boolean;
  adminEventsEnabled: boolean;
  adminEventsDetailsEnabled: boolean;
  enabledEventTypes: string[];
  /** Seconds events are kept; null: for ever. */
  eventsExpiration: number | null;
}
