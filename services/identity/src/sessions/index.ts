export { SessionsRepository, type AccountGrant, type AccountSession, type UserSession } from './sessions.repository.js';
export { endAccountSessions, type SessionsDeps } from './sessions.js';
