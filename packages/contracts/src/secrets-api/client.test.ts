import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { secretsApiClient, SecretsApiUnavailable, type SecretsApiClient } from './client.ts';

/** What the server saw of the last call, and what it answers the next. */
let seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string } | undefined;
let answer: { status: number; body: string; delayMs?: number } = { status: 200, body: '{}' };
let server: Server;
let api: SecretsApiClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      const send = () => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = secretsApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, authorization: () => Promise.resolve('Bearer t0ken'), timeoutMs: 500 });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('sends the body as JSON under /api/v1 with the authorization, and hands back a documented answer', async () => {
  answer = { status: 200, body: JSON.stringify({ metadata_key: 'm1', secret_ttl: 60 }) };
  const res = await api.post('/share', { body: { secret: 'hunter2', recipient: 'bob@example.com', ttl: 60 } });
  expect(seen).toMatchObject({ method: 'POST', url: '/api/v1/share', headers: { authorization: 'Bearer t0ken', 'content-type': 'application/json', accept: 'application/json' } });
  expect(JSON.parse(seen!.body)).toEqual({ secret: 'hunter2', recipient: 'bob@example.com', ttl: 60 });
  expect(res.status).toBe(200);
  if (res.status === 200) expect(res.body.metadata_key).toBe('m1');
});

test('puts path parameters in the path, encoded', async () => {
  answer = { status: 404, body: JSON.stringify({ message: 'Unknown secret', code: 'not_found' }) };
  const res = await api.post('/private/{metadata_key}/burn', { path: { metadata_key: 'a/b c' } });
  expect(seen).toMatchObject({ method: 'POST', url: '/api/v1/private/a%2Fb%20c/burn', body: '' });
  expect(res).toEqual({ status: 404, body: { message: 'Unknown secret', code: 'not_found' } });
});

test('a status the operation does not document, or an answer without JSON, is SecretsApiUnavailable', async () => {
  answer = { status: 502, body: '<html>bad gateway</html>' };
  await expect(api.post('/share', { body: {} })).rejects.toThrow(new SecretsApiUnavailable('POST /share answered 502, which its document does not describe'));
  answer = { status: 200, body: 'not json' };
  await expect(api.post('/share', { body: {} })).rejects.toThrow(SecretsApiUnavailable);
});

test('no answer within the timeout, or nobody listening, is SecretsApiUnavailable', async () => {
  answer = { status: 200, body: '{}', delayMs: 5_000 };
  await expect(api.post('/share', { body: {} })).rejects.toThrow(SecretsApiUnavailable);
  const nobody = secretsApiClient({ baseUrl: 'http://127.0.0.1:1', authorization: () => Promise.resolve(''), timeoutMs: 500 });
  await expect(nobody.post('/share', { body: {} })).rejects.toThrow(SecretsApiUnavailable);
});
