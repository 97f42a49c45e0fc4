import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import request from 'supertest';
import { ConfigError, createLogger } from '@hush/common';
import { createIdentityApp } from '../src/app.js';
import { readConfig } from '../src/config.js';
import { createDb } from '../src/db/knex.js';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { postForm } from '@hush/testing';
import { identityAndClientPerFile, type ApiClient, type Harness } from './harness.js';

let h: Harness;
let c: ApiClient;
identityAndClientPerFile((started, client) => {
  h = started;
  c = client;
});

const token = async () => {
  const res = await postForm(`${h.issuer}/protocol/openid-connect/token`, {
    grant_type: 'client_credentials',
    scope: c.read,
    client_id: c.clientId,
    client_secret: c.clientSecret,
  });
  return String(res.body['access_token']);
};
const kids = async () => ((await request(h.issuer).get('/protocol/openid-connect/certs')).body as { keys: { kid: string }[] }).keys.map((k) => k.kid);
// A fresh key set per check: a resource server that refetches the JWKS.
const verify = (jwt: string) => jwtVerify(jwt, createRemoteJWKSet(new URL(`${h.issuer}/protocol/openid-connect/certs`)), { issuer: h.issuer, audience: c.api, typ: 'at+jwt' });

describe('signing key rotation without downtime', () => {
  it('publishes the next key before it signs, keeps the old key until retired', async () => {
    const oldToken = await token();
    const oldKid = decodeProtectedHeader(oldToken).kid as string;

    const added = await h.cli<{ kids: string[] }>('keys', 'add-next');
    expect(added.kids).toHaveLength(2); // one per algorithm, RS256 and ES256
    expect(await h.identity.reloadKeys()).toBe(true);
    expect(await kids()).toEqual(expect.arrayContaining([oldKid, ...added.kids]));
    expect(decodeProtectedHeader(await token()).kid).toBe(oldKid); // published, not yet signing
    const listedNext = await h.cli<{ kid: string; alg: string }[]>('keys', 'list');
    const next = { kid: listedNext.find((k) => added.kids.includes(k.kid) && k.alg === decodeProtectedHeader(oldToken).alg)?.kid as string };
    const otherOld = listedNext.find((k) => k.kid !== oldKid && !added.kids.includes(k.kid))?.kid as string;

    await h.cli('keys', 'promote');
    await h.identity.reloadKeys();
    const newToken = await token();
    expect(decodeProtectedHeader(newToken).kid).toBe(next.kid);
    await expect(verify(oldToken)).resolves.toBeDefined(); // old tokens still verify
    await expect(verify(newToken)).resolves.toBeDefined();

    // Not retired before its tokens have expired...
    expect((await h.cli<{ retired: string[] }>('keys', 'retire')).retired).toEqual([]);
    const listed = await h.cli<{ kid: string; status: string; retireAfter: string }[]>('keys', 'list');
    const retiring = listed.find((k) => k.kid === oldKid);
    expect(retiring?.status).toBe('retiring');
    expect(new Date(retiring?.retireAfter as string).getTime()).toBeGreaterThan(Date.now() + 300_000);

    // ...and once retired (forced here), gone from the JWKS: its tokens no longer verify.
    expect((await h.cli<{ retired: string[] }>('keys', 'retire', '--force')).retired.sort()).toEqual([oldKid, otherOld].sort());
    await h.identity.reloadKeys();
    expect((await kids()).sort()).toEqual([...added.kids].sort());
    await expect(verify(oldToken)).rejects.toThrow();
    await expect(verify(newToken)).resolves.toBeDefined();
  });

  it('"keys rotate" takes one safe step at a time', async () => {
    const first = await h.cli<{ step: string; kids: string[] }>('keys', 'rotate');
    expect(first.step).toBe('added-next');
    expect(first.kids).toHaveLength(2);
    const second = await h.cli<{ step: string; kids: string[] }>('keys', 'rotate');
    expect(second.step).toBe('waiting'); // not promoted before every process has published them
    expect([...second.kids].sort()).toEqual([...first.kids].sort());
  });

  it('stores private keys only encrypted', async () => {
    const client = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT public_jwk, private_jwk_sealed FROM signing_keys');
      for (const row of rows) {
        expect(row.public_jwk.d).toBeUndefined();
        expect((row.private_jwk_sealed as Buffer).toString('latin1')).not.toMatch(/"d"|"kty"/);
      }
    } finally {
      await client.end();
    }
  });
});

describe('a wrong MASTER_KEY', () => {
  it('refuses to start with a message naming MASTER_KEY, not a crypto stack trace', async () => {
    const config = readConfig({ ...h.env, MASTER_KEY: randomBytes(32).toString('hex') });
    const db = createDb(config.DATABASE_URL, 1);
    const redis = new Redis(config.REDIS_URL, { lazyConnect: true });
    try {
      const starting = createIdentityApp(config, { db, redis, logger: createLogger({ name: 'test', level: 'silent' }) }).start();
      await expect(starting).rejects.toThrow(ConfigError);
      await expect(starting).rejects.toThrow(/MASTER_KEY cannot decrypt signing key/);
    } finally {
      await db.destroy();
      redis.disconnect();
    }
  });
});
