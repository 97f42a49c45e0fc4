import { join } from 'node:path';
import type { Settings } from '../settings.ts';
import { readPrivateJson, writePrivateJson } from '../private-files.ts';

/**
 * The logins hush keeps, one per identity issuer, in `credentials.json` of its folder (0600): the
 * tokens of the device grant and where to refresh and revoke them.
 */
export interface Login {
  client_id: string;
  token_endpoint: string;
  revocation_endpoint?: string | undefined;
  access_token: string;
  refresh_token?: string | undefined;
  /** Unix time, seconds: when the access token stops working. */
  expires_at: number;
  username?: string | undefined;
}

interface CredentialsFile {
  version: 1;
  logins: Record<string, Login>;
}

export const credentialsPath = (settings: Pick<Settings, 'configDir'>) => join(settings.configDir, 'credentials.json');

async function readFile(settings: Pick<Settings, 'configDir'>): Promise<CredentialsFile> {
  const file = await readPrivateJson<CredentialsFile>(credentialsPath(settings));
  return file?.version === 1 && typeof file.logins === 'object' ? file : { version: 1, logins: {} };
}

export async function loadLogin(settings: Pick<Settings, 'configDir' | 'issuer'>): Promise<Login | undefined> {
  return (await readFile(settings)).logins[settings.issuer];
}

export async function saveLogin(settings: Pick<Settings, 'configDir' | 'issuer'>, login: Login): Promise<void> {
  const file = await readFile(settings);
  file.logins[settings.issuer] = login;
  await writePrivateJson(credentialsPath(settings), file);
}

export async function forgetLogin(settings: Pick<Settings, 'configDir' | 'issuer'>): Promise<void> {
  const file = await readFile(settings);
  if (!(settings.issuer in file.logins)) return;
  delete file.logins[settings.issuer];
  await writePrivateJson(credentialsPath(settings), file);
}
