import { startSmtp, type TestSmtp } from '@hush/testing';
import { startSecrets, type Harness } from './harness.js';

/**
 * The e-mail to the person a secret request names: sent once through the outbox (inline delivery:
 * the mailer's own sending code, to a real SMTP server), with the requester, the label and the
 * request link, which then takes the secret; a request that names nobody sends nothing.
 */
let smtp: TestSmtp;
let h: Harness;
let auth: string;
let custid: string;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startSecrets({ DELIVERY_MODE: 'inline', SMTP_URL: smtp.url });
  ({ auth, custid } = await h.account());
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

it('e-mails the person asked the request link, once; the link then takes the secret', async () => {
  const created = await h.http.post('/api/v1/requests').set('Authorization', auth).send({ label: 'The staging <db> password', recipient: 'pat@example.com' });
  expect(created.status).toBe(201);
  const link = (created.body as { link: string }).link;
  const [mail] = await smtp.waitFor('pat@example.com', 1);
  expect(mail?.mail.subject).toBe(`${custid} asks you for a secret`);
  expect(mail?.mail.text).toContain('The staging <db> password');
  expect(mail?.mail.text).toContain(link);
  // Its outbox row, the last copy of the address and the link, goes once the outcome is known.
  for (let i = 0; i < 50 && (await h.db('outbox').count({ n: '*' }))[0]?.n !== 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await h.db('outbox').count({ n: '*' })).toEqual([{ n: 0 }]);

  const key = link.split('/request/')[1] as string;
  const answered = await h.http.post(`/api/v1/request/${key}`).send({ secret: 'pw' });
  expect(answered.status).toBe(201);
  await new Promise((r) => setTimeout(r, 300));
  expect(smtp.to('pat@example.com')).toHaveLength(1);
});

it('a request that names nobody sends nothing', async () => {
  const before = smtp.received.length;
  const created = await h.http.post('/api/v1/requests').set('Authorization', auth).send({ label: 'No one in particular' });
  expect(created.status).toBe(201);
  expect(await h.db('outbox').count({ n: '*' })).toEqual([{ n: 0 }]);
  await new Promise((r) => setTimeout(r, 300));
  expect(smtp.received).toHaveLength(before);
});
