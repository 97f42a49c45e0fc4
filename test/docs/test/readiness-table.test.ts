import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { eventually } from '@hush/testing';
import { startIdentity } from '../../../services/identity/test/harness.js';
import { startTestMailer } from '../../../services/mailer/test/harness.js';
import { startSecrets } from '../../../services/secrets/test/harness.js';

// docs/deploy.md's readiness table against the running services: what each one's /readyz checks
// (the dependencies a ready answer names) and what it only reports (those its /healthz names).

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The words the table uses for each check's name in the services' answers. */
const CHECKS: [RegExp, string][] = [
  [/\bPostgreSQL\b/, 'database'],
  [/\bRedis\b/, 'redis'],
  [/\bsigning key/, 'keys'],
];
const named = (cell: string) =>
  CHECKS.filter(([words]) => words.test(cell))
    .map(([, check]) => check)
    .sort();

/** The table's rows: service → the checks of its `/readyz` column and of its "reported only" column. */
function documentedTable(): Record<string, { readyz: string[]; reported: string[] }> {
  const lines = readFileSync(join(root, 'docs', 'deploy.md'), 'utf8').split('\n');
  const header = lines.findIndex((l) => /^\| service \| `\/readyz` checks \| reported only \|$/.test(l.trim()));
  expect(header).toBeGreaterThan(-1);
  const rows: Record<string, { readyz: string[]; reported: string[] }> = {};
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [service = '', readyz = '', reported = ''] = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    rows[service] = { readyz: named(readyz), reported: named(reported) };
  }
  return rows;
}

/** What a running service's management port answers once ready: the checks /readyz names, and those /healthz reports. */
async function answered(managementUrl: string) {
  // The mailer is ready once its Redis connection is up, a moment after it starts.
  const ready = await eventually(async () => {
    const res = await request(managementUrl).get('/readyz');
    return res.status === 200 ? res : undefined;
  });
  const live = await request(managementUrl).get('/healthz');
  expect(live.status).toBe(200);
  const checks = (body: Record<string, string>) =>
    Object.keys(body)
      .filter((k) => k !== 'status')
      .sort();
  return { readyz: checks(ready.body as Record<string, string>), reported: checks(live.body as Record<string, string>) };
}

describe("docs/deploy.md's readiness table", () => {
  const table = documentedTable();

  it('names the three services', () => {
    expect(Object.keys(table).sort()).toEqual(['identity', 'mailer', 'secrets']);
  });

  /** Each service started as its tests start it, with where its management port answers. */
  const services: Record<string, () => Promise<{ managementUrl: string; close(): Promise<void> }>> = {
    identity: startIdentity,
    secrets: () => startSecrets(),
    // The mailer connects to the relay only to send, and it sends nothing here.
    mailer: async () => {
      const h = await startTestMailer('smtp://127.0.0.1:9');
      return { managementUrl: h.url, close: () => h.close() };
    },
  };

  it.each(Object.entries(services))('says what %s checks and reports', async (name, start) => {
    const h = await start();
    try {
      expect(await answered(h.managementUrl)).toEqual(table[name]);
    } finally {
      await h.close();
    }
  });
});
