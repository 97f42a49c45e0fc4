import { adminDatabaseUrl, duringOutage, postForm, TcpProxy } from '@hush/testing';
import { startIdentity, type Harness } from './harness.js';

// PostgreSQL is reached through a proxy this file cuts; the real server keeps running for the others.
const postgres = new TcpProxy(adminDatabaseUrl);
let h: Harness;

beforeAll(async () => {
  await postgres.start();
  // Without the client cache a token request reads its client from the database.
  h = await startIdentity({ CLIENT_CACHE: 'false' }, { postgres });
});
afterAll(async () => {
  await h.close();
  await postgres.stop();
});

const linesOf = (logs: string[], msg: string) => logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['msg'] === msg);

it('when a token request meets a database outage, then the outage line carries the request id the caller sent', async () => {
  const res = await duringOutage(postgres, 'stop', () =>
    postForm(
      `${h.issuer}/protocol/openid-connect/token`,
      { grant_type: 'client_credentials', client_id: 'some-client', client_secret: 'some-secret' },
      { 'X-Request-Id': 'outage-token-1' },
    ),
  );
  expect(res.status).toBe(503);
  expect(linesOf(h.logs, 'database unavailable')).toEqual([expect.objectContaining({ reqId: 'outage-token-1', dependency: 'database' })]);
});
