export { SessionsRepository, type UserSession } from './sessions.repository.js';
export { endAccountSessions, type SessionsDeps } from './sessions.js';
