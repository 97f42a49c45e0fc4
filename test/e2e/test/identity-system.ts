import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { freePort, postForm } from '@hush/testing';
import { startIdentity, type Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import { startSystem, type System } from './system.js';

/**
 * Identity next to the secrets service and the mailer (startSystem), each trusting the other as in
 * production: the secrets API accepts identity's tokens, and identity hands credentials over
 * through it as its bootstrap client `hush-handover`. The secrets port is chosen first, so
 * identity can be told its URL (SECRETS_URL) before either starts. Everything this process and the
 * secrets service call on identity goes to its listener (`identity.url`), as inside a cluster, so
 * AUTH_URL may name a public origin that is not reachable from here.
 */
export interface IdentitySystem extends System {
  identity: IdentityHarness;
  /** The bootstrap admin client's secret (hush-admin, realm-admin). */
  adminSecret: string;
  handoverSecret: string;
  tokenUrl: string;
  /** An admin API access token of hush-admin. */
  adminToken(): Promise<string>;
  /** identity's database as pg_dump writes it, to look for what must not be there. */
  identityDump(): Promise<string>;
}

export async function startIdentitySystem(
  identityEnv: Record<string, string> | ((url: string) => Record<string, string>) = {},
  opts: { mailerEnv?: Record<string, string>; secretsEnv?: Record<string, string> } = {},
): Promise<IdentitySystem> {
  const secretsPort = await freePort();
  const handoverSecret = randomBytes(32).toString('hex');
  const identity = await startIdentity((url) => ({
    SECRETS_URL: `http://127.0.0.1:${secretsPort}`,
    HANDOVER_CLIENT_SECRET: handoverSecret,
    ...(typeof identityEnv === 'function' ? identityEnv(url) : identityEnv),
  }));
  const realm = `${identity.url}/auth/realms/public`;
  let system: System;
  try {
    system = await startSystem({
      secretsEnv: {
        PORT: String(secretsPort),
        IDENTITY_ISSUER: identity.issuer,
        IDENTITY_JWKS_URL: `${realm}/protocol/openid-connect/certs`,
        REVOCATIONS_CHANNEL: identity.config.REVOCATIONS_CHANNEL,
        ...opts.secretsEnv,
      },
      ...(opts.mailerEnv ? { mailerEnv: opts.mailerEnv } : {}),
    });
  } catch (err) {
    await identity.close();
    throw err;
  }
  const boot = await identity.cli<{ admin_client: { client_secret: string } }>(
    'bootstrap',
    '--secrets-audience',
    system.secrets.config.API_AUDIENCE,
    '--secrets-url',
    system.secrets.url,
  );
  const tokenUrl = `${realm}/protocol/openid-connect/token`;
  const adminSecret = boot.admin_client.client_secret;
  return {
    ...system,
    // The mailer running now: startMailer() replaces the one a spread would have copied.
    get mailer() {
      return system.mailer;
    },
    identity,
    adminSecret,
    handoverSecret,
    tokenUrl,
    async adminToken() {
      const res = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: 'hush-admin', client_secret: adminSecret });
      if (res.status !== 200) throw new Error(`admin token: ${res.status}`);
      return String(res.body['access_token']);
    },
    async identityDump() {
      const { stdout } = await promisify(execFile)('pg_dump', ['--data-only', identity.config.DATABASE_URL], { maxBuffer: 64 * 1024 * 1024 });
      return stdout;
    },
    async close() {
      await system.close();
      await identity.close();
    },
  };
}
