import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import request from 'supertest';
import { createLogger } from '@hush/common';
import { readConfig } from '../src/config.js';
import { aSecretLinkJob, producerJobOptions, serveMailer, startTestMailer, type MailerHarness } from './harness.js';
import { eventually, probeReadiness, startSmtp, type TestSmtp } from '@hush/testing';

let smtp: TestSmtp;
let h: MailerHarness;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startTestMailer(smtp.url);
});

afterAll(async () => {
  await h.close();
  await smtp.close();
});

test('GET /healthz answers 200 while the process runs', async () => {
  const res = await request(h.url).get('/healthz');
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
});

test('GET /readyz answers 200 when Redis answers', async () => {
  // As a readiness probe, which asks again: on a busy machine one ping can outlast the check's limit.
  const ready = await eventually(async () => {
    const res = await probeReadiness(h.url);
    return res.status === 200 ? res : undefined;
  });
  expect(ready.body).toEqual({ status: 'ready', redis: 'ok' });
});

test('GET /metrics shows the sent counter, the failure counters, the send histogram, the queue gauge and process metrics', async () => {
  const job = aSecretLinkJob();
  await h.add(job, producerJobOptions(job.deliveryId));
  await h.waitForStatus(job.deliveryId, 'sent');

  const res = await request(h.url).get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  const text = res.text;
  expect(text).toMatch(/^hush_mailer_emails_sent_total 1$/m);
  expect(text).toContain('# TYPE hush_mailer_emails_failed_total counter');
  expect(text).toMatch(/^hush_mailer_send_duration_seconds_count 1$/m);
  expect(text).toMatch(/^hush_mailer_queue_waiting 0$/m);
  expect(text).toContain('process_cpu_user_seconds_total');
});

test('unknown paths answer 404 and other methods 405', async () => {
  expect((await request(h.url).get('/nope')).status).toBe(404);
  expect((await request(h.url).post('/healthz')).status).toBe(405);
});

test('GET /readyz answers 503 when Redis does not answer, and close() still returns', async () => {
  // A "Redis" that accepts connections and never answers, like one that hangs.
  const sockets = new Set<Socket>();
  const blackHole = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  blackHole.listen(0, '127.0.0.1');
  await once(blackHole, 'listening');
  const redisUrl = `redis://127.0.0.1:${(blackHole.address() as AddressInfo).port}`;
  const config = readConfig({ REDIS_URL: redisUrl, SMTP_URL: smtp.url, MANAGEMENT_PORT: '0', QUEUE_PREFIX: 'mailer-test-unreachable', MAIL_SEALING_KEY: 'cd'.repeat(32) });
  const mailer = await serveMailer(config, createLogger({ name: 'mailer-test', level: 'silent' }));
  try {
    const url = `http://127.0.0.1:${mailer.port}`;
    expect((await request(url).get('/healthz')).status).toBe(200);
    expect((await request(url).get('/readyz')).status).toBe(503);
  } finally {
    await mailer.close();
    for (const socket of sockets) socket.destroy();
    blackHole.close();
  }
});
