import { homedir } from 'node:os';
import { join } from 'node:path';
import { CLI_CLIENT_ID } from '@hush/contracts/clients';
import { usageError } from './errors.ts';

/**
 * Where hush talks to and keeps its files, from the command's flags and the environment (read
 * once, here): flags first, then HUSH_* variables, then the addresses `npm start` serves.
 */
export interface Settings {
  /** The secrets service's origin (its BASE_URL). */
  secretsUrl: string;
  /** Identity's origin (its AUTH_URL), or a realm's issuer URL. */
  authUrl: string;
  /** Identity's issuer: `{authUrl}/auth/realms/public` unless authUrl names a realm. */
  issuer: string;
  /** The OAuth client hush signs in as: a public client allowed the device grant. */
  clientId: string;
  /** hush's own folder: the login's tokens and the opening keys of requests, 0600 files in a 0700 folder. */
  configDir: string;
  /** `custid:api_token`, an API token of the secrets service used instead of a login (for scripts and CI). */
  apiToken: string | undefined;
}

export const DEFAULT_SECRETS_URL = 'http://localhost:3000';
export const DEFAULT_AUTH_URL = 'http://localhost:8080';
/** Identity's client for this command line, seeded by its migrations (the contract's id). */
export const DEFAULT_CLIENT_ID = CLI_CLIENT_ID;

function origin(value: string, name: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    throw usageError(`${name} must be an http(s) address such as ${DEFAULT_SECRETS_URL}, not ${JSON.stringify(value)}`);
  }
  return url.href.replace(/\/+$/, '');
}

/** The folder for hush's files: HUSH_CONFIG_DIR, else the platform's per-user configuration folder. */
export function configDirOf(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env['HUSH_CONFIG_DIR']) return env['HUSH_CONFIG_DIR'];
  if (platform === 'win32') return join(env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), 'hush');
  if (platform === 'darwin' && !env['XDG_CONFIG_HOME']) return join(homedir(), 'Library', 'Application Support', 'hush');
  return join(env['XDG_CONFIG_HOME'] || join(homedir(), '.config'), 'hush');
}

export function readSettings(flags: { url?: string | undefined; 'auth-url'?: string | undefined }, env: NodeJS.ProcessEnv): Settings {
  const secretsUrl = origin(flags.url ?? env['HUSH_URL'] ?? DEFAULT_SECRETS_URL, flags.url ? '--url' : 'HUSH_URL');
  const authUrl = origin(flags['auth-url'] ?? env['HUSH_AUTH_URL'] ?? DEFAULT_AUTH_URL, flags['auth-url'] ? '--auth-url' : 'HUSH_AUTH_URL');
  const apiToken = env['HUSH_API_TOKEN'] || undefined;
  if (apiToken !== undefined && !/^[^:\s]+:\S+$/.test(apiToken)) throw usageError('HUSH_API_TOKEN must be custid:api_token (an API token of the secrets service)');
  return {
    secretsUrl,
    authUrl,
    issuer: /\/auth\/realms\/[^/]+$/.test(authUrl) ? authUrl : `${authUrl}/auth/realms/public`,
    clientId: env['HUSH_CLIENT_ID'] || DEFAULT_CLIENT_ID,
    configDir: configDirOf(env),
    apiToken,
  };
}
