import pg from 'pg';
import request from 'supertest';
import { identityPerFile, type Harness } from './harness.js';

// hush_signing_key_age_seconds{alg}: how long the active key of each algorithm this process signs
// with has been signing. The alert on a key rotation that stopped (the chart's PrometheusRule) reads it.

let h: Harness;
identityPerFile((started) => {
  h = started;
});

const DAY = 86_400;

/** The gauge's value per algorithm, as Prometheus scrapes it from the management port. */
async function keyAges(): Promise<Record<string, number>> {
  const res = await request(h.managementUrl).get('/metrics');
  expect(res.status).toBe(200);
  const ages: Record<string, number> = {};
  for (const m of res.text.matchAll(/^hush_signing_key_age_seconds\{[^}]*alg="([A-Z0-9]+)"[^}]*\} (\S+)$/gm)) ages[m[1] ?? ''] = Number(m[2]);
  return ages;
}

/** Moves the moment the active keys began signing `days` into the past, as if they had signed that long. */
async function backdateActiveKeys(days: number): Promise<void> {
  const client = new pg.Client({ connectionString: h.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`UPDATE signing_keys SET activated_at = now() - make_interval(days => $1) WHERE status = 'active'`, [days]);
  } finally {
    await client.end();
  }
}

describe('the age of the signing keys in /metrics', () => {
  it('reports one age per algorithm for the active keys, never negative', async () => {
    const ages = await keyAges();
    expect(Object.keys(ages).sort()).toEqual(['ES256', 'RS256']);
    for (const age of Object.values(ages)) expect(age).toBeGreaterThanOrEqual(0);
  });

  it('counts from when a key began signing, as loaded by the process, and starts again once the next keys are promoted', async () => {
    await backdateActiveKeys(40);
    // The process reports the keys it loaded: the backdated ones once the key set changes (the next keys published).
    await h.cli('keys', 'add-next');
    expect(await h.identity.reloadKeys()).toBe(true);
    for (const age of Object.values(await keyAges())) expect(age).toBeGreaterThanOrEqual(40 * DAY);

    await h.cli('keys', 'promote');
    expect(await h.identity.reloadKeys()).toBe(true);
    const promoted = await keyAges();
    expect(Object.keys(promoted).sort()).toEqual(['ES256', 'RS256']);
    for (const age of Object.values(promoted)) expect(age).toBeLessThan(40 * DAY);
  });
});
