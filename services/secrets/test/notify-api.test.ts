import ajv2020 from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { startSecrets, type Harness } from './harness.js';

/**
 * The share option `notify` / `notify_email` in the OpenAPI document, and the real answers to
 * shares that use it validated against that document, in both dialects (the onetimesecret
 * dialect accepts it as an extension its clients never send).
 */
describe.each([
  ['spec', {}],
  ['onetimesecret', { API_DIALECT: 'onetimesecret' }],
] as const)('API_DIALECT=%s', (dialect, env) => {
  let h: Harness;
  type Operation = { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> }; responses: Record<string, unknown> };
  let doc: { paths: Record<string, Record<string, Operation>> };
  const Ajv2020 = ajv2020.default;
  const addFormats = ajvFormats.default;
  let ajv: InstanceType<typeof Ajv2020>;
  let auth: string;

  beforeAll(async () => {
    h = await startSecrets(env);
    auth = (await h.account()).auth;
    doc = (await h.http.get('/api/v1/openapi.json')).body as typeof doc;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'openapi.json');
  });
  afterAll(() => h.close());

  const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

  function expectConforms(path: string, res: { status: number; body: unknown }, method = 'post') {
    const validate = ajv.getSchema(`openapi.json#/${pointer('paths', path, method, 'responses', String(res.status), 'content', 'application/json', 'schema')}`);
    expect(validate).toBeDefined();
    if (!validate?.(res.body)) throw new Error(`POST ${path} ${res.status} does not match the document: ${JSON.stringify(validate?.errors)}`);
    return res.body as Record<string, unknown>;
  }

  it('documents notify and notify_email on share and generate', () => {
    for (const path of ['/share', '/generate']) {
      const properties = doc.paths[path]?.['post']?.requestBody.content['application/json']?.schema.properties ?? {};
      expect(Object.keys(properties)).toEqual(expect.arrayContaining(['notify', 'notify_email']));
    }
  });

  it('answers a share and a generate with notify as the document says, and refuses a bad one with a documented 4xx', async () => {
    const shared = await h.http.post('/api/v1/share').set('Authorization', auth).send({ secret: 'x', notify: 'revealed,expired', notify_email: 'me@example.com' });
    expect(shared.status).toBe(200);
    expectConforms('/share', shared);
    const generated = await h.http.post('/api/v1/generate').set('Authorization', auth).send({ notify: 'burned', notify_email: 'me@example.com' });
    expect(generated.status).toBe(200);
    expectConforms('/generate', generated);
    const metadata = await h.http.get(`/api/v1/private/${(shared.body as { metadata_key: string }).metadata_key}`).set('Authorization', auth);
    expect(metadata.status).toBe(200);
    const receipt = expectConforms('/private/{metadata_key}', metadata, 'get');
    // The spec dialect shows the events on the receipt; Onetime Secret's shapes have no such field.
    expect(receipt['notify']).toEqual(dialect === 'spec' ? ['revealed', 'expired'] : undefined);
    if (dialect === 'spec') {
      // notify_status appears once a notification has an outcome (the e2e notification test); its documented shape:
      const validate = ajv.getSchema(`openapi.json#/${pointer('paths', '/private/{metadata_key}', 'get', 'responses', '200', 'content', 'application/json', 'schema')}`);
      expect(validate?.({ ...receipt, notify_status: { revealed: 'sent', expired: 'failed' } })).toBe(true);
      expect(validate?.({ ...receipt, notify_status: { opened: 'sent' } })).toBe(false);
    }
    const notifyOn = await h.db('metadata').select('notify_on').whereNotNull('notify_on').orderBy('id');
    expect(notifyOn.map((r: { notify_on: string[] }) => r.notify_on)).toEqual([['revealed', 'expired'], ['burned']]);

    for (const bad of [{ notify: 'opened', notify_email: 'me@example.com' }, { notify: 'revealed', notify_email: 'not an address' }, { notify: 'revealed' }]) {
      const res = await h.http
        .post('/api/v1/share')
        .set('Authorization', auth)
        .send({ secret: 'x', ...bad });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expectConforms('/share', res);
      if (dialect === 'spec') expect((res.body as { code: string }).code).toBe(bad.notify_email === undefined ? 'notify_email_required' : 'invalid_parameter');
    }
  });
});
