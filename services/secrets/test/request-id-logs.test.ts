import { adminDatabaseUrl, duringOutage, TcpProxy } from '@hush/testing';
import { startSecrets, type Harness } from './harness.js';

// PostgreSQL is reached through a proxy this file cuts; the real server keeps running for the others.
const postgres = new TcpProxy(adminDatabaseUrl);
let h: Harness;

beforeAll(async () => {
  await postgres.start();
  h = await startSecrets({}, { postgres });
});
afterAll(async () => {
  await h.close();
  await postgres.stop();
});

const linesOf = (logs: string[], msg: string) => logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['msg'] === msg);

it('when a read meets a database outage, then the outage line carries the request id the caller sent', async () => {
  const res = await duringOutage(postgres, 'stop', () => h.http.post(`/api/v1/secret/${'a'.repeat(31)}`).set('X-Request-Id', 'outage-read-1'));
  expect(res.status).toBe(503);
  expect(res.headers['x-request-id']).toBe('outage-read-1');
  expect(linesOf(h.logs, 'database unavailable')).toEqual([expect.objectContaining({ reqId: 'outage-read-1', dependency: 'database' })]);
});
