import { randomBytes } from 'node:crypto';
import { hashKey } from '../src/secrets/keys.js';
import {
  ZkApiError,
  zkAnswer,
  zkConcat,
  zkDecode,
  zkEncode,
  zkInfo,
  zkKeys,
  zkParseLink,
  zkRead,
  zkReadAnswer,
  zkRequestKeyPair,
  zkShare,
  zkSealHeader,
  zkRandom,
  type ZkService,
} from '@hush/zk';
import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

/**
 * Zero-knowledge secrets through the API (docs/zero-knowledge.md), with @hush/zk as the client
 * (Node's WebCrypto, as a browser's): the service stores what it cannot open, a read must prove
 * the link's key, a wrong key changes nothing, passphrases are counted without being seen, files
 * stream in and out once.
 */
const FILE_MAX_BYTES = 300_000;
let h: Harness;
let alice: Account;
let service: ZkService;
beforeAll(async () => {
  ({ h, alice } = await startSecretsWithAccount({ PASSPHRASE_MAX_ATTEMPTS: '3', FILE_MAX_BYTES: String(FILE_MAX_BYTES) }));
  service = { baseUrl: h.url, authorization: alice.auth };
});
afterAll(() => h.close());

/** The link with another key in its fragment. */
const otherKey = (link: string) => `${link.slice(0, link.indexOf('#'))}#${zkEncode(zkRandom(32))}`;
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: unknown) => err as ZkApiError,
  );
const filesOf = async (account: Account) => Number((await h.db('zk_files').where('custid', account.custid).count({ n: '*' }).first())?.n);
const metadataOf = async (metadataKey: string) => (await h.http.get(`/api/v1/private/${metadataKey}`).set('Authorization', alice.auth)).body as Record<string, unknown>;

describe('a zero-knowledge text', () => {
  it('is shared as an envelope with a verifier, answered with its page and read once with the link', async () => {
    const shared = await zkShare(service, { text: 'db-password: Ω s3cr3t' });
    expect(shared.answer).toMatchObject({ zero_knowledge: true, link: `${h.url}/secret/${shared.secretKey}`, passphrase_required: false, state: 'new' });
    expect(shared.link).toMatch(new RegExp(`^${h.url}/secret/[0-9a-z]{31}#[A-Za-z0-9_-]{43}$`));
    await expect(metadataOf(shared.metadataKey)).resolves.toMatchObject({ zero_knowledge: true, secret_key: shared.secretKey });
    await expect(zkInfo(service, shared.secretKey)).resolves.toMatchObject({ zero_knowledge: true, passphrase_required: false });
    await expect(zkRead({}, shared.link)).resolves.toEqual({ text: 'db-password: Ω s3cr3t' });
    expect((await refusal(zkRead({}, shared.link))).status).toBe(404);
    await expect(metadataOf(shared.metadataKey)).resolves.toMatchObject({ state: 'received', secret_key: null, zero_knowledge: true });
  });

  it('a link without its key or with another cannot consume it: 403 wrong_key, and the right link still reads it', async () => {
    const shared = await zkShare(service, { text: 'still here' });
    const res = await h.http.post(`/api/v1/zk/secret/${shared.secretKey}`).send({ key_proof: zkEncode(zkRandom(32)) });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('wrong_key');
    expect((await h.http.post(`/api/v1/zk/secret/${shared.secretKey}`).send({})).status).toBe(400);
    expect((await refusal(zkRead({}, otherKey(shared.link)))).code).toBe('wrong_key');
    await expect(metadataOf(shared.metadataKey)).resolves.toMatchObject({ state: 'new', secret_key: shared.secretKey });
    await expect(zkRead({}, shared.link)).resolves.toEqual({ text: 'still here' });
  });

  it('the classic read refuses it and consumes nothing; the zero-knowledge read refuses a classic secret', async () => {
    const shared = await zkShare(service, { text: 'not for the classic read' });
    const classic = await h.http.post(`/api/v1/secret/${shared.secretKey}`).send({});
    expect(classic.status).toBe(400);
    expect(classic.body.code).toBe('key_proof_required');
    await expect(zkRead({}, shared.link)).resolves.toEqual({ text: 'not for the classic read' });

    const plain = await h.http.post('/api/v1/share').set('Authorization', alice.auth).send({ secret: 'classic' });
    const zk = await h.http.post(`/api/v1/zk/secret/${plain.body.secret_key}`).send({ key_proof: zkEncode(zkRandom(32)) });
    expect(zk.status).toBe(400);
    expect(zk.body.code).toBe('not_zero_knowledge');
    expect((await h.http.post(`/api/v1/secret/${plain.body.secret_key}`).send({})).body.value).toBe('classic');
  });

  it('of 20 concurrent reads with the right link, exactly one gets it', async () => {
    const shared = await zkShare(service, { text: 'once' });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => zkRead({}, shared.link)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && (r.reason as ZkApiError).status === 404)).toHaveLength(19);
  });

  it('reads of many secrets at once, right and wrong links mixed, a passphrase among them: each right link reads its own once, nothing else changes', async () => {
    const texts = Array.from({ length: 12 }, (_, i) => `secret number ${i}`);
    const shared = await Promise.all(texts.map((text) => zkShare(service, { text })));
    const locked = await zkShare(service, { text: 'with a passphrase' }, { passphrase: 'correct horse' });
    const reads = [...shared.map((s) => zkRead({}, otherKey(s.link))), ...shared.map((s) => zkRead({}, s.link)), ...shared.map((s) => zkRead({}, s.link)), zkRead({}, locked.link)];
    const results = await Promise.allSettled(reads);
    const outcome = (r: PromiseSettledResult<{ text?: string }>) => (r.status === 'fulfilled' ? r.value.text : (r.reason as ZkApiError).code);
    // A wrong link is refused: wrong_key while its secret is there, unknown_secret once a right read
    // running beside it has taken the secret (the reads race, as they would in use).
    const wrong = results.slice(0, 12).map(outcome);
    expect(wrong.filter((o) => o !== 'wrong_key' && o !== 'unknown_secret')).toEqual([]);
    // Of each pair of right reads exactly one got its own text, the other found it gone.
    for (let i = 0; i < 12; i++) {
      const pair = [outcome(results[12 + i]!), outcome(results[24 + i]!)];
      expect(pair.filter((o) => o === texts[i])).toHaveLength(1);
    }
    expect(outcome(results[36]!)).toBe('passphrase_required');
    await expect(zkRead({}, locked.link, 'correct horse')).resolves.toEqual({ text: 'with a passphrase' });
  });

  it('stores neither the text nor the key nor the proof: the row holds a sealed envelope and the verifier', async () => {
    const shared = await zkShare(service, { text: 'never in clear' });
    const parts = zkParseLink(shared.link)!;
    const row = await h.db('secrets').where('secret_hash', hashKey(shared.secretKey)).first();
    const keys = await zkKeys(parts.key);
    expect(Buffer.from(row.key_verifier).toString('base64url')).toBe(keys.keyVerifier);
    const dump = JSON.stringify(row) + Buffer.from(row.ciphertext).toString('latin1');
    for (const needle of ['never in clear', zkEncode(parts.key), zkEncode(keys.keyProof), Buffer.from(parts.key).toString('hex')]) expect(dump).not.toContain(needle);
    expect(row.passphrase_hash).toBeNull();
  });

  it('refuses envelopes and verifiers that are not well-formed, and envelopes longer than the plan allows', async () => {
    const keys = await zkKeys(zkRandom(32));
    const envelope = zkEncode(await zkSealHeader(keys, { text: 'x' }, zkRandom(12)));
    const share = (body: object) => h.http.post('/api/v1/zk/share').set('Authorization', alice.auth).send(body);
    expect((await share({ envelope, key_verifier: 'short' })).body.code).toBe('invalid_parameter');
    expect((await share({ envelope: 'not*base64', key_verifier: keys.keyVerifier })).body.code).toBe('invalid_parameter');
    expect((await share({ key_verifier: keys.keyVerifier })).body.code).toBe('invalid_parameter');
    const huge = await share({ envelope: zkEncode(zkConcat(new Uint8Array([1]), zkRandom(8000))), key_verifier: keys.keyVerifier });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('secret_too_long');
    expect((await share({ envelope, key_verifier: keys.keyVerifier, ttl: 5 })).body.code).toBe('invalid_ttl');
  });
});

describe('a zero-knowledge passphrase', () => {
  it('is counted and capped by the service, which never sees it: missing costs nothing, wrong ones count, the right one reads', async () => {
    const shared = await zkShare(service, { text: 'behind a passphrase' }, { passphrase: 'open sesame' });
    expect(shared.answer['passphrase_required']).toBe(true);
    expect((await refusal(zkRead({}, shared.link))).code).toBe('passphrase_required');
    expect((await refusal(zkRead({}, shared.link))).code).toBe('passphrase_required');
    const wrong = await refusal(zkRead({}, shared.link, 'open barley'));
    expect(wrong).toMatchObject({ status: 401, code: 'passphrase_incorrect' });
    expect(wrong.message).toMatch(/2 attempts left/);
    // A wrong key with a passphrase is told apart from a wrong passphrase: it counts nothing.
    expect((await refusal(zkRead({}, otherKey(shared.link), 'open sesame'))).code).toBe('wrong_key');
    expect((await refusal(zkRead({}, shared.link, 'open wheat'))).message).toMatch(/1 attempt left/);
    await expect(zkRead({}, shared.link, 'open sesame')).resolves.toEqual({ text: 'behind a passphrase' });
  });

  it('the attempt that reaches the limit destroys it; its receipt says burned', async () => {
    const shared = await zkShare(service, { text: 'gone after three' }, { passphrase: 'right' });
    await refusal(zkRead({}, shared.link, 'wrong1'));
    await refusal(zkRead({}, shared.link, 'wrong2'));
    expect((await refusal(zkRead({}, shared.link, 'wrong3'))).message).toMatch(/destroyed/);
    expect((await refusal(zkRead({}, shared.link, 'right'))).status).toBe(404);
    await expect(metadataOf(shared.metadataKey)).resolves.toMatchObject({ state: 'burned' });
  });

  it('parallel wrong guesses cannot exceed the limit', async () => {
    const shared = await zkShare(service, { text: 'guarded' }, { passphrase: 'right' });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => zkRead({}, shared.link, `guess-${i}`)));
    const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as ZkApiError).code : 'read'));
    expect(codes.filter((c) => c === 'passphrase_incorrect')).toHaveLength(3);
    expect(codes.filter((c) => c === 'unknown_secret')).toHaveLength(5);
  });
});

describe('a zero-knowledge file', () => {
  const bytes = randomBytes(200_001);

  it('is uploaded in records, attached by the share, downloaded once and gone', async () => {
    const shared = await zkShare(service, { text: 'the certificate', file: { name: 'tls.pem', type: 'application/x-pem-file', bytes } });
    const size = bytes.length + 16 * 4;
    await expect(metadataOf(shared.metadataKey)).resolves.toMatchObject({ file_size: size, zero_knowledge: true });
    await expect(zkInfo(service, shared.secretKey)).resolves.toMatchObject({ file_size: size });
    const opened = await zkRead({}, shared.link);
    expect(opened.text).toBe('the certificate');
    expect(opened.file).toMatchObject({ name: 'tls.pem', type: 'application/x-pem-file' });
    expect(Buffer.from(opened.file!.bytes).equals(bytes)).toBe(true);
    await expect(filesOf(alice)).resolves.toBe(0);
    await expect(h.db('zk_file_records').count({ n: '*' }).first()).resolves.toEqual({ n: 0 });
  });

  it('the download token works until the file has been downloaded once', async () => {
    const shared = await zkShare(service, { file: { name: 'a.bin', type: 'application/octet-stream', bytes: bytes.subarray(0, 1000) } });
    const keys = await zkKeys(zkParseLink(shared.link)!.key);
    const read = await h.http.post(`/api/v1/zk/secret/${shared.secretKey}`).send({ key_proof: zkEncode(keys.keyProof) });
    expect(read.status).toBe(200);
    expect(read.body.file).toEqual({ url: expect.stringMatching(/^\/api\/v1\/zk\/files\/[A-Za-z0-9_-]{43}$/), size: 1016, expires: expect.any(Number) });
    const first = await h.http.get(read.body.file.url).buffer(true);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/octet-stream');
    expect(first.headers['content-length']).toBe('1016');
    expect((await h.http.get(read.body.file.url)).status).toBe(404);
  });

  it('a file over FILE_MAX_BYTES is refused (413) and nothing of it stays', async () => {
    const declared = await h.http
      .post('/api/v1/zk/files')
      .set('Authorization', alice.auth)
      .type('application/octet-stream')
      .send(randomBytes(FILE_MAX_BYTES + 200));
    expect(declared.status).toBe(413);
    expect(declared.body.code).toBe('file_too_large');
    await expect(filesOf(alice)).resolves.toBe(0);
  });

  it('needs an account to upload, and an upload is attached only by its own account, once', async () => {
    expect((await h.http.post('/api/v1/zk/files').type('application/octet-stream').send(Buffer.alloc(10))).status).toBe(401);
    const upload = await h.http.post('/api/v1/zk/files').set('Authorization', alice.auth).type('application/octet-stream').send(randomBytes(100));
    expect(upload.status).toBe(201);
    expect(upload.body).toEqual({ file: expect.any(String), size: 100, expires: expect.any(Number) });
    const keys = await zkKeys(zkRandom(32));
    const envelope = zkEncode(await zkSealHeader(keys, { file: { name: 'x', type: 'text/plain', size: 84 } }, zkRandom(12)));
    const bob = await h.account();
    const asBob = await h.http.post('/api/v1/zk/share').set('Authorization', bob.auth).send({ envelope, key_verifier: keys.keyVerifier, file: upload.body.file });
    expect(asBob.status).toBe(404);
    expect(asBob.body.code).toBe('unknown_file');
    const asAlice = () => h.http.post('/api/v1/zk/share').set('Authorization', alice.auth).send({ envelope, key_verifier: keys.keyVerifier, file: upload.body.file });
    expect((await asAlice()).status).toBe(200);
    expect((await asAlice()).body.code).toBe('unknown_file');
  });

  it('a burned secret takes its file with it', async () => {
    const carol = await h.account();
    const shared = await zkShare({ baseUrl: h.url, authorization: carol.auth }, { file: { name: 'b.bin', type: 'application/octet-stream', bytes: bytes.subarray(0, 5000) } });
    await expect(filesOf(carol)).resolves.toBe(1);
    expect((await h.http.post(`/api/v1/private/${shared.metadataKey}/burn`).set('Authorization', carol.auth)).status).toBe(200);
    await expect(filesOf(carol)).resolves.toBe(0);
  });
});

describe('a zero-knowledge request', () => {
  it('is answered encrypted for the requester, whose opening key alone reads it, with its account', async () => {
    const pair = await zkRequestKeyPair();
    const created = await h.http.post('/api/v1/requests').set('Authorization', alice.auth).send({ label: 'The staging database password', public_key: pair.publicKey });
    expect(created.status).toBe(201);
    expect(created.body.public_key).toBe(pair.publicKey);
    const requestKey = String(created.body.link).split('/request/')[1]!;
    const info = await h.http.get(`/api/v1/request/${requestKey}`);
    expect(info.body).toMatchObject({ label: 'The staging database password', requester: alice.custid, public_key: pair.publicKey });
    // The classic answer is refused: the requester asked for one encrypted by the sender.
    expect((await h.http.post(`/api/v1/request/${requestKey}`).send({ secret: 'in clear' })).body.code).toBe('zero_knowledge_request');
    await expect(zkAnswer({ baseUrl: h.url }, requestKey, 'hunter2')).resolves.toEqual({ status: 'sent', requester: alice.custid, label: 'The staging database password' });
    expect((await refusal(zkAnswer({ baseUrl: h.url }, requestKey, 'again'))).status).toBe(404);

    const [item] = (await h.http.get('/api/v1/private/recent').set('Authorization', alice.auth)).body as { metadata_key: string; zero_knowledge?: boolean }[];
    expect(item).toMatchObject({ zero_knowledge: true, request_label: 'The staging database password' });
    const secretKey = String((await metadataOf(item!.metadata_key))['secret_key']);
    const bob = await h.account();
    expect((await refusal(zkReadAnswer({ baseUrl: h.url, authorization: bob.auth }, secretKey, pair.openingKey))).code).toBe('secret_for_another_account');
    expect((await refusal(zkReadAnswer({ baseUrl: h.url, authorization: alice.auth }, secretKey, (await zkRequestKeyPair()).openingKey))).message).toMatch(/./);
    await expect(zkReadAnswer({ baseUrl: h.url, authorization: alice.auth }, secretKey, pair.openingKey)).resolves.toEqual({ text: 'hunter2' });
    await expect(metadataOf(item!.metadata_key)).resolves.toMatchObject({ state: 'received', received_by: alice.custid });
  });
});

it('decoding helpers reject what is not base64url', () => {
  expect(() => zkDecode('a*b')).toThrow();
  expect(zkDecode(zkEncode(new Uint8Array([1, 2, 3])))).toEqual(new Uint8Array([1, 2, 3]));
});
