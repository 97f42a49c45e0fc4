import type { ZkService } from '@hush/zk/client';
import { CliError, EXIT, talkingTo } from './errors.ts';
import { sessionOf, withCredentials } from './login/session.ts';
import type { Settings } from './settings.ts';

/**
 * Calls the secrets service hush is set to (HUSH_URL) with the session's credentials (a login's
 * access token, refreshed as needed, or HUSH_API_TOKEN). `required`: what to say when there are
 * none, for calls only an account may make.
 */
export async function callApi<T>(settings: Settings, call: (service: ZkService) => Promise<T>, required?: string): Promise<T> {
  const session = sessionOf(settings);
  if (required !== undefined && (await session.authorization()) === undefined)
    throw new CliError(EXIT.login, `${required}: sign in first with \`hush login\` (or set HUSH_API_TOKEN).`);
  return talkingTo(settings.secretsUrl, () => withCredentials(session, (authorization) => call({ baseUrl: settings.secretsUrl, ...(authorization ? { authorization } : {}) })));
}
