import ajv2020 from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { zkEncode, zkKeys, zkRandom, zkRequestKeyPair, zkSealHeader, zkWrapKey } from '@hush/zk';
import { startSecrets, type Harness } from './harness.js';

/**
 * The OpenAPI document checked against reality: every response below, from the real service,
 * must validate against the schema the document gives for its path, method and status; once per
 * API dialect (each deployment serves the document of the dialect it speaks).
 */
describe.each([
  ['spec', {}],
  ['onetimesecret', { API_DIALECT: 'onetimesecret', ANONYMOUS_SHARES: 'true' }],
] as const)('API_DIALECT=%s', (dialect, env) => {
  let h: Harness;
  let doc: Record<string, unknown> & { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  // CommonJS modules: under NodeNext the default import is module.exports, whose .default is the export.
  const Ajv2020 = ajv2020.default;
  const addFormats = ajvFormats.default;
  let ajv: InstanceType<typeof Ajv2020>;
  let alice: Awaited<ReturnType<Harness['account']>>;

  beforeAll(async () => {
    h = await startSecrets(env);
    alice = await h.account();
    const res = await h.http.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'openapi.json');
  });
  afterAll(() => h.close());

  const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

  function expectConforms(path: string, method: string, res: { status: number; body: unknown }) {
    const operation = doc.paths[path]?.[method];
    expect(operation).toBeDefined();
    expect(Object.keys(operation?.responses ?? {})).toContain(String(res.status));
    const validate = ajv.getSchema(`openapi.json#/${pointer('paths', path, method, 'responses', String(res.status), 'content', 'application/json', 'schema')}`);
    expect(validate).toBeDefined();
    const ok = validate?.(res.body);
    if (!ok) throw new Error(`${method.toUpperCase()} ${path} ${res.status} does not match the document: ${JSON.stringify(validate?.errors)}\n${JSON.stringify(res.body)}`);
  }

  it('is OpenAPI 3.1 and describes the six operations of docs/api.md', () => {
    expect(doc['openapi']).toBe('3.1.0');
    for (const [path, method] of [
      ['/share', 'post'],
      ['/generate', 'post'],
      ['/secret/{secret_key}', 'post'],
      ['/private/{metadata_key}', 'post'],
      ['/private/{metadata_key}/burn', 'post'],
      ['/private/recent', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method]).toBeDefined();
    }
  });

  it('real responses of every operation match their schemas', async () => {
    const auth = alice.auth;
    expectConforms('/status', 'get', await h.http.get('/api/v1/status'));
    expectConforms('/status', 'get', await h.http.get('/api/v1/status').set('Authorization', 'Basic d3Jvbmc6d3Jvbmc='));
    expectConforms('/authcheck', 'get', await h.http.get('/api/v1/authcheck').set('Authorization', auth));
    expectConforms('/authcheck', 'get', await h.http.get('/api/v1/authcheck'));

    const shared = await h.http
      .post('/api/v1/share')
      .set('Authorization', auth)
      .send({ secret: 'x', recipient: 'foo@example.com', passphrase: 'pass', share_domain: 'example.net' });
    expectConforms('/share', 'post', shared);
    expectConforms('/create', 'post', await h.http.post('/api/v1/create').set('Authorization', auth).send({ secret: 'y' }));
    expectConforms('/share', 'post', await h.http.post('/api/v1/share').set('Authorization', auth).send({}));
    expectConforms(
      '/share',
      'post',
      await h.http
        .post('/api/v1/share')
        .set('Authorization', auth)
        .send({ secret: 'x'.repeat(1001) }),
    );
    expectConforms('/share', 'post', await h.http.post('/api/v1/share').send({ secret: 'x' }));

    const generated = await h.http.post('/api/v1/generate').set('Authorization', auth).send({ length: 20 });
    expectConforms('/generate', 'post', generated);
    expectConforms('/generate', 'post', await h.http.post('/api/v1/generate').set('Authorization', auth).send({ ttl: 5 }));

    const metaNew = await h.http.post(`/api/v1/private/${shared.body.metadata_key}`).set('Authorization', auth);
    expectConforms('/private/{metadata_key}', 'post', metaNew);
    expectConforms('/private/{metadata_key}', 'get', await h.http.get(`/api/v1/private/${shared.body.metadata_key}`).set('Authorization', auth));
    expectConforms('/secret/{secret_key}', 'post', await h.http.post(`/api/v1/secret/${shared.body.secret_key}`));
    expectConforms('/secret/{secret_key}', 'post', await h.http.post(`/api/v1/secret/${shared.body.secret_key}`).send({ passphrase: 'wrong' }));
    const read = await h.http.post(`/api/v1/secret/${shared.body.secret_key}`).send({ passphrase: 'pass' });
    expect(read.status).toBe(200);
    expectConforms('/secret/{secret_key}', 'post', read);
    expectConforms('/secret/{secret_key}', 'post', await h.http.post(`/api/v1/secret/${shared.body.secret_key}`));
    const metaReceived = await h.http.post(`/api/v1/private/${shared.body.metadata_key}`).set('Authorization', auth);
    expect(metaReceived.body.state).toBe('received');
    expectConforms('/private/{metadata_key}', 'post', metaReceived);
    expectConforms('/private/{metadata_key}', 'post', await h.http.post(`/api/v1/private/${'z'.repeat(31)}`).set('Authorization', auth));

    expectConforms('/private/{metadata_key}', 'post', await h.http.post(`/api/v1/private/${generated.body.metadata_key}`).set('Authorization', auth));
    const burned = await h.http.post(`/api/v1/private/${generated.body.metadata_key}/burn`).set('Authorization', auth);
    expect(burned.status).toBe(200);
    expectConforms('/private/{metadata_key}', 'get', await h.http.get(`/api/v1/private/${generated.body.metadata_key}`).set('Authorization', auth));
    expectConforms('/private/{metadata_key}/burn', 'post', burned);
    expectConforms('/private/{metadata_key}/burn', 'post', await h.http.post(`/api/v1/private/${generated.body.metadata_key}/burn`).set('Authorization', auth));

    const recent = await h.http.get('/api/v1/private/recent?limit=2').set('Authorization', auth);
    expect(recent.body.length).toBe(2);
    expectConforms('/private/recent', 'get', recent);
    expectConforms('/private/recent', 'get', await h.http.get('/api/v1/private/recent?limit=abc').set('Authorization', auth));
    expectConforms('/metadata/recent', 'get', await h.http.get('/api/v1/metadata/recent').set('Authorization', auth));

    expectConforms('/account/api-token', 'post', await h.http.post('/api/v1/account/api-token'));
    expectConforms('/account/api-tokens', 'get', await h.http.get('/api/v1/account/api-tokens').set('Authorization', auth));
  });

  it('real responses of the secret request routes, and of a requested secret, match their schemas', async () => {
    const auth = alice.auth;
    const created = await h.http.post('/api/v1/requests').set('Authorization', auth).send({ label: 'API key', recipient: 'bob@example.com' });
    expect(created.status).toBe(201);
    expectConforms('/requests', 'post', created);
    expectConforms('/requests', 'post', await h.http.post('/api/v1/requests').set('Authorization', auth).send({}));
    expectConforms('/requests', 'post', await h.http.post('/api/v1/requests').send({ label: 'x' }));
    const key = String(created.body.link).split('/request/')[1];
    expectConforms('/request/{request_key}', 'post', await h.http.post(`/api/v1/request/${key}`).send({}));
    const answered = await h.http.post(`/api/v1/request/${key}`).send({ secret: 'sk-123' });
    expect(answered.status).toBe(201);
    expectConforms('/request/{request_key}', 'post', answered);
    expectConforms('/request/{request_key}', 'post', await h.http.post(`/api/v1/request/${key}`).send({ secret: 'again' }));
    expectConforms('/requests', 'get', await h.http.get('/api/v1/requests').set('Authorization', auth));
    const open = await h.http.post('/api/v1/requests').set('Authorization', auth).send({ label: 'to cancel' });
    expectConforms('/requests/{id}', 'delete', await h.http.delete(`/api/v1/requests/${open.body.id}`).set('Authorization', auth));
    expectConforms('/requests/{id}', 'delete', await h.http.delete(`/api/v1/requests/${open.body.id}`).set('Authorization', auth));

    const recent = await h.http.get('/api/v1/private/recent').set('Authorization', auth);
    const item = (recent.body as { metadata_key: string }[])[0];
    const meta = await h.http.get(`/api/v1/private/${item?.metadata_key}`).set('Authorization', auth);
    expectConforms('/private/{metadata_key}', 'get', meta);
    const secretKey = String(meta.body.secret_key);
    expectConforms('/secret/{secret_key}', 'post', await h.http.post(`/api/v1/secret/${secretKey}`));
    const read = await h.http.post(`/api/v1/secret/${secretKey}`).set('Authorization', auth);
    expect(read.status).toBe(200);
    expectConforms('/secret/{secret_key}', 'post', read);
    expectConforms('/private/{metadata_key}', 'get', await h.http.get(`/api/v1/private/${item?.metadata_key}`).set('Authorization', auth));
  });

  it('real responses of the zero-knowledge routes match their schemas', async () => {
    const auth = alice.auth;
    const key = zkRandom(32);
    const keys = await zkKeys(key);
    const envelope = zkEncode(await zkSealHeader(keys, { text: 'x', file: { name: 'a', type: '', size: 3 } }, zkRandom(12)));
    const upload = await h.http.post('/api/v1/zk/files').set('Authorization', auth).type('application/octet-stream').send(Buffer.alloc(19));
    expect(upload.status).toBe(201);
    expectConforms('/zk/files', 'post', upload);
    expectConforms('/zk/files', 'post', await h.http.post('/api/v1/zk/files').set('Authorization', auth).type('application/octet-stream').send(Buffer.alloc(0)));
    const shared = await h.http.post('/api/v1/zk/share').set('Authorization', auth).send({ envelope, key_verifier: keys.keyVerifier, file: upload.body.file });
    expect(shared.status).toBe(200);
    expectConforms('/zk/share', 'post', shared);
    expectConforms('/zk/share', 'post', await h.http.post('/api/v1/zk/share').set('Authorization', auth).send({ envelope }));
    const secretKey = String(shared.body.secret_key);
    expectConforms('/zk/secret/{secret_key}', 'get', await h.http.get(`/api/v1/zk/secret/${secretKey}`));
    expectConforms('/zk/secret/{secret_key}', 'post', await h.http.post(`/api/v1/zk/secret/${secretKey}`).send({ key_proof: zkEncode(zkRandom(32)) }));
    const read = await h.http.post(`/api/v1/zk/secret/${secretKey}`).send({ key_proof: zkEncode(keys.keyProof) });
    expect(read.status).toBe(200);
    expectConforms('/zk/secret/{secret_key}', 'post', read);
    expectConforms('/zk/secret/{secret_key}', 'get', await h.http.get(`/api/v1/zk/secret/${secretKey}`));
    expect((await h.http.get(String(read.body.file.url))).status).toBe(200);
    expectConforms('/zk/files/{download_token}', 'get', await h.http.get(String(read.body.file.url)));
    const metadata = await h.http.get(`/api/v1/private/${shared.body.metadata_key}`).set('Authorization', auth);
    expect(metadata.body).toMatchObject(dialect === 'spec' ? { zero_knowledge: true, file_size: 19 } : { state: 'received' });
    expectConforms('/private/{metadata_key}', 'get', metadata);

    const pair = await zkRequestKeyPair();
    const request = await h.http.post('/api/v1/requests').set('Authorization', auth).send({ label: 'zk', public_key: pair.publicKey });
    expectConforms('/requests', 'post', request);
    const requestKey = String(request.body.link).split('/request/')[1];
    expectConforms('/request/{request_key}', 'get', await h.http.get(`/api/v1/request/${requestKey}`));
    const answer = { envelope, key_verifier: keys.keyVerifier, wrapped_key: zkEncode(await zkWrapKey(pair.publicKey, key)) };
    expectConforms('/zk/request/{request_key}', 'post', await h.http.post(`/api/v1/zk/request/${requestKey}`).send({ envelope }));
    expectConforms('/zk/request/{request_key}', 'post', await h.http.post(`/api/v1/zk/request/${requestKey}`).send(answer));
    expectConforms('/zk/request/{request_key}', 'post', await h.http.post(`/api/v1/zk/request/${requestKey}`).send(answer));
    expectConforms('/request/{request_key}', 'get', await h.http.get(`/api/v1/request/${requestKey}`));
  });

  it('the schemas are strict: an extra or mistyped field fails', () => {
    const validate = ajv.getSchema(`openapi.json#/${pointer('components', 'schemas', 'Secret')}`);
    const good = {
      custid: 'a',
      metadata_key: 'a'.repeat(31),
      secret_key: 'b'.repeat(31),
      ttl: 1,
      metadata_ttl: 2,
      secret_ttl: 1,
      created: 1,
      updated: 1,
      passphrase_required: false,
      state: 'new',
      share_domain: '',
      ...(dialect === 'onetimesecret' ? { recipient: [] } : {}),
    };
    expect(validate?.(good)).toBe(true);
    expect(validate?.({ ...good, ttl: '1' })).toBe(false);
    expect(validate?.({ ...good, value: 'leak' })).toBe(false);
    // The Go clients decode `recipient` as an array: a string there fails the Onetime Secret document.
    if (dialect === 'onetimesecret') expect(validate?.({ ...good, recipient: 'fo*****@e*****.com' })).toBe(false);
  });
});
