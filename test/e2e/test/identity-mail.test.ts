import { randomBytes } from 'node:crypto';
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { Queue } from 'bullmq';
import { IDENTITY_DELIVERY_STATUS_QUEUE, MAIL_QUEUE } from '@hush/queue';
import { testRedisUrl } from '@hush/testing';
import { startIdentity, type Harness } from '../../../services/identity/test/harness.js';
import { askForReset, linkMailedTo } from '../../../services/identity/test/account-mail.js';
import { eventually, RedisProxy, startSystem, type System } from './system.js';
import { startIdentityWithMailer } from './identity-mail.js';

/**
 * Identity's account e-mails on the shared mail queue: identity's outbox → BullMQ → the mailer
 * the secrets service also uses → SMTP, with each service's outcomes reported to its own status
 * queue; the job in Redis holds neither the link nor the address.
 */
describe('identity and the secrets service on one mail queue', () => {
  let system: System;
  let identity: Harness;
  beforeAll(async () => {
    system = await startSystem();
    identity = await startIdentity({
      QUEUE_PREFIX: system.secrets.env['QUEUE_PREFIX'] as string,
      MAIL_SEALING_KEY: system.secrets.env['MAIL_SEALING_KEY'] as string,
      RELAY_INTERVAL_MS: '100',
      MAIL_BACKOFF_MS: '100',
      TRUST_PROXY: 'loopback',
    });
    await identity.cli('users', 'create', 'quinn', '--password', 'correct horse battery staple', '--email', 'quinn@example.com');
  }, 60_000);
  afterAll(async () => {
    await identity?.close();
    await system?.close();
  });

  it('each service gets the outcome of its own e-mails', async () => {
    const { auth } = await system.secrets.account();
    const share = await system.secrets.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: 'shared value', recipient: 'rita@example.com' });
    expect(share.status).toBe(200);
    await askForReset(identity, 'quinn', '198.51.100.1');

    const mail = await linkMailedTo(system.smtp, 'quinn@example.com');
    expect(mail.subject).toBe('Reset your password');
    await system.smtp.waitFor('rita@example.com');

    // Identity's: recorded on its token, and the outbox row (the last copy of address and link) gone.
    const token = await eventually(async () => {
      const { rows } = await identity.identity.context.db.raw<{ rows: { delivery_status: string | null }[] }>(`SELECT delivery_status FROM action_tokens`);
      return rows[0]?.delivery_status === 'sent' ? rows[0] : undefined;
    });
    expect(token.delivery_status).toBe('sent');
    // Every row handed on and then gone (another e-mail of the set-up may still be on its way meanwhile).
    await eventually(async () => ((await identity.identity.context.mailOutbox.pending()) === 0 ? true : undefined));
    await eventually(async () => ((await identity.identity.context.db.raw<{ rows: unknown[] }>('SELECT 1 FROM mail_outbox')).rows.length === 0 ? true : undefined));
    // The secrets service's: recorded on its metadata, as before.
    const metadata = await eventually(async () => {
      const body = (await system.secrets.http.get(`/api/v1/private/${(share.body as { metadata_key: string }).metadata_key}`).set('Authorization', auth)).body as Record<
        string,
        unknown
      >;
      return body['delivery_status'] === 'sent' ? body : undefined;
    });
    expect(metadata['delivery_status']).toBe('sent');
  });

  it('a job waiting in Redis holds neither the link nor the address', async () => {
    await system.mailer.close();
    // A name of this attempt's own, so that a retry does not meet the first attempt's user.
    const name = `sam${randomBytes(3).toString('hex')}`;
    await identity.cli('users', 'create', name, '--password', 'correct horse battery staple', '--email', `${name}@example.com`);
    await askForReset(identity, name, '198.51.100.2');
    const prefix = system.secrets.env['QUEUE_PREFIX'] as string;
    const queue = new Queue(MAIL_QUEUE, { connection: { url: testRedisUrl }, prefix });
    const statuses = new Queue(IDENTITY_DELIVERY_STATUS_QUEUE, { connection: { url: testRedisUrl }, prefix });
    try {
      const jobs = await eventually(async () => {
        const waiting = await queue.getJobs(['waiting', 'delayed']);
        return waiting.some((j) => j.name === 'reset-password') ? waiting : undefined;
      });
      const job = jobs.find((j) => j.name === 'reset-password');
      expect(job?.data).toMatchObject({ version: 2, from: 'identity' });
      // What is in clear names neither; the rest is one base64url string, where no address or link
      // can stand in clear ('@', '.', ':' and '/' are not in its alphabet). A search of the
      // ciphertext itself for the name would fail by chance now and then.
      const { sealed, ...clear } = job?.data as { sealed: unknown };
      expect(JSON.stringify(clear)).not.toContain(name);
      expect(JSON.stringify(clear)).not.toContain('action-token');
      expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
      // Nothing of it reported yet: no mailer runs.
      expect(await statuses.count()).toBe(0);
    } finally {
      await Promise.all([queue.close(), statuses.close()]);
    }
  });
});

describe('identity’s durable hand-off while Redis is away', () => {
  it('keeps the e-mail in its outbox while the queue is unreachable, and it leaves once Redis is back', async () => {
    const redis = new RedisProxy();
    await redis.start();
    const sys = await startIdentityWithMailer({ REDIS_URL: redis.url, TRUST_PROXY: 'loopback' });
    try {
      await sys.identity.cli('users', 'create', 'vera', '--password', 'correct horse battery staple', '--email', 'vera@example.com');
      await redis.stop();
      // The answer does not wait for Redis; the e-mail waits in the outbox.
      expect((await askForReset(sys.identity, 'vera', '198.51.100.3')).status).toBe(200);
      await eventually(async () => ((await sys.identity.identity.context.mailOutbox.pending()) === 1 ? true : undefined));
      await new Promise((r) => setTimeout(r, 500));
      expect(sys.smtp.to('vera@example.com')).toHaveLength(0);

      await redis.start();
      const mail = await linkMailedTo(sys.smtp, 'vera@example.com');
      expect(mail.subject).toBe('Reset your password');
      await eventually(async () => {
        const { rows } = await sys.identity.identity.context.db.raw<{ rows: { delivery_status: string | null }[] }>(`SELECT delivery_status FROM action_tokens`);
        return rows[0]?.delivery_status === 'sent' ? true : undefined;
      }, 20_000);
      expect(sys.smtp.to('vera@example.com')).toHaveLength(1);
    } finally {
      await sys.close();
      await redis.stop();
    }
  }, 60_000);
});

describe('Keycloak’s admin library: users.executeActionsEmail', () => {
  it('sends the e-mail through the mailer, with the lifespan, client and redirect URI as Keycloak takes them', async () => {
    const sys = await startIdentityWithMailer();
    try {
      const boot = await sys.identity.cli<{ admin_client: { client_secret: string } }>('bootstrap', '--secrets-audience', 'https://secrets.example.com/api/v1');
      const { id } = await sys.identity.cli<{ id: string }>('users', 'create', 'xena', '--password', 'correct horse battery staple', '--email', 'xena@example.com');
      const app = await sys.identity.cli<{ client_id: string }>(
        'clients',
        'create',
        '--name',
        'app',
        '--grants',
        'authorization_code',
        '--scopes',
        'openid',
        '--redirect-uri',
        'https://app.example.com/back',
      );
      const kc = new KcAdminClient({ baseUrl: `${sys.identity.url}/auth`, realmName: 'public' });
      await kc.auth({ grantType: 'client_credentials', clientId: 'hush-admin', clientSecret: boot.admin_client.client_secret });
      await kc.users.executeActionsEmail({
        id,
        actions: ['UPDATE_PASSWORD', 'VERIFY_EMAIL'],
        lifespan: 3600,
        clientId: app.client_id,
        redirectUri: 'https://app.example.com/back',
      });
      const mail = await linkMailedTo(sys.smtp, 'xena@example.com');
      expect(mail.subject).toBe('Update your account');
      const { rows } = await sys.identity.identity.context.db.raw<{ rows: { client_id: string; redirect_uri: string; lifespan: number }[] }>(
        `SELECT client_id, redirect_uri, round(extract(epoch FROM expires_at - created_at))::int AS lifespan FROM action_tokens`,
      );
      expect(rows).toEqual([{ client_id: app.client_id, redirect_uri: 'https://app.example.com/back', lifespan: 3600 }]);
    } finally {
      await sys.close();
    }
  }, 60_000);
});
