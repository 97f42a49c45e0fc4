import { createCipheriv, createECDH, createHash, hkdfSync, pbkdf2Sync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { zkSealFile, zkOpenFile } from './client.ts';
import {
  zkChunkAad,
  zkDecode,
  zkEncode,
  zkHkdf,
  zkIv,
  zkKeys,
  zkLink,
  zkOpenHeader,
  zkParams,
  zkParseLink,
  zkSealHeader,
  zkUnwrapKey,
  zkUtf8,
  zkWrapKey,
  type Bytes,
} from './format.ts';

/**
 * The test vectors of docs/zero-knowledge.md, read from the document itself: each is recomputed
 * with the format's functions (WebCrypto, as in a browser) and again from the document's
 * description with OpenSSL's primitives (node:crypto), so the prose, the vectors and the code agree.
 */
const DOC = fileURLToPath(new URL('../../../docs/zero-knowledge.md', import.meta.url));
const block = /<!-- test-vectors -->\s*```json\n([\s\S]*?)\n```/.exec(readFileSync(DOC, 'utf8'));
/** Every field a vector of the document may have (each vector has those of its kind). */
type Field =
  | 'name'
  | 'key'
  | 'nonce'
  | 'header'
  | 'encryption_key'
  | 'key_proof'
  | 'key_verifier'
  | 'envelope'
  | 'link'
  | 'passphrase_nfd_utf8'
  | 'passphrase_nfc_utf8'
  | 'passphrase_salt'
  | 'stretched'
  | 'passphrase_proof'
  | 'passphrase_verifier'
  | 'iv_1'
  | 'iv_2'
  | 'aad_2'
  | 'record_1_sha256'
  | 'record_2'
  | 'body_sha256'
  | 'requester_opening_key'
  | 'requester_public_key'
  | 'ephemeral_opening_key'
  | 'wrapped_key';
type Vector = Record<Field, string> & { body_bytes: number };
const vectors = JSON.parse(block?.[1] ?? '[]') as Vector[];
const byName = (name: string): Vector => {
  const v = vectors.find((x) => x.name === name);
  if (!v) throw new Error(`no vector ${name}`);
  return v;
};
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string): Bytes => new Uint8Array(Buffer.from(h, 'hex'));
const BASE = 'https://hush.example';
const SECRET_KEY = '0123456789abcdefghijklmnopqrstu';
const L = zkParams().labels;

/** The description's HKDF, with OpenSSL: empty salt, the label as info. */
const hkdf = (ikm: Uint8Array, info: string, length = 32, salt: Uint8Array = new Uint8Array(0)) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();
function gcm(key: Uint8Array, iv: Uint8Array, aad: Uint8Array, plain: Uint8Array): Buffer {
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(aad);
  return Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
}

it('the document holds the four vectors', () => {
  expect(vectors.map((v) => v.name)).toEqual(['text', 'passphrase', 'file', 'request']);
});

describe('vector "text"', () => {
  const v = byName('text');
  const key = bytes(v['key']);
  const nonce = bytes(v['nonce']);

  it('WebCrypto: the keys, proof, verifier, envelope and link', async () => {
    const keys = await zkKeys(key);
    expect(hex(await zkHkdf(key, L.encryption, 32))).toBe(v['encryption_key']);
    expect(zkEncode(keys.keyProof)).toBe(v['key_proof']);
    expect(keys.keyVerifier).toBe(v['key_verifier']);
    expect(zkEncode(await zkSealHeader(keys, JSON.parse(v['header']), nonce))).toBe(v['envelope']);
    expect(zkLink(BASE, SECRET_KEY, key)).toBe(v['link']);
    expect(zkParseLink(v['link'])).toEqual({ base: BASE, secretKey: SECRET_KEY, key });
    await expect(zkOpenHeader(keys, zkDecode(v['envelope']))).resolves.toEqual({ header: JSON.parse(v['header']), nonce });
  });

  it('OpenSSL, from the description', () => {
    const e = hkdf(key, L.encryption);
    const kp = hkdf(key, L.keyProof);
    expect(e.toString('hex')).toBe(v['encryption_key']);
    expect(kp.toString('base64url')).toBe(v['key_proof']);
    expect(sha256(kp).toString('base64url')).toBe(v['key_verifier']);
    const envelope = Buffer.concat([Buffer.from([1]), nonce, gcm(e, nonce, zkUtf8(L.header), Buffer.from(v['header']))]);
    expect(envelope.toString('base64url')).toBe(v['envelope']);
  });
});

describe('vector "passphrase"', () => {
  const v = byName('passphrase');
  const key = bytes(v['key']);
  const nonce = bytes(v['nonce']);
  const passphrase = Buffer.from(v['passphrase_nfd_utf8'], 'hex').toString('utf8');

  it('WebCrypto: the passphrase is normalised to NFC and stretched; both proofs and verifiers; the envelope', async () => {
    expect(Buffer.from(passphrase.normalize('NFC')).toString('hex')).toBe(v['passphrase_nfc_utf8']);
    const keys = await zkKeys(key, passphrase);
    expect(hex(await zkHkdf(key, L.passphraseSalt, 16))).toBe(v['passphrase_salt']);
    expect(zkEncode(keys.keyProof)).toBe(v['key_proof']);
    expect(keys.keyVerifier).toBe(v['key_verifier']);
    expect(zkEncode(keys.passphraseProof!)).toBe(v['passphrase_proof']);
    expect(keys.passphraseVerifier).toBe(v['passphrase_verifier']);
    expect(zkEncode(await zkSealHeader(keys, JSON.parse(v['header']), nonce))).toBe(v['envelope']);
    // The same passphrase typed composed (NFC) gives the same keys.
    expect((await zkKeys(key, passphrase.normalize('NFC'))).passphraseVerifier).toBe(v['passphrase_verifier']);
    await expect(zkOpenHeader(await zkKeys(key, 'Creme brulee'), zkDecode(v['envelope']))).rejects.toThrow();
  });

  it('OpenSSL, from the description', () => {
    const salt = hkdf(key, L.passphraseSalt, 16);
    expect(salt.toString('hex')).toBe(v['passphrase_salt']);
    const stretched = pbkdf2Sync(Buffer.from(v['passphrase_nfc_utf8'], 'hex'), salt, zkParams().pbkdf2Iterations, 32, 'sha256');
    expect(stretched.toString('hex')).toBe(v['stretched']);
    const ikm = Buffer.concat([key, stretched]);
    const e = hkdf(ikm, L.encryption);
    expect(e.toString('hex')).toBe(v['encryption_key']);
    expect(hkdf(key, L.keyProof).toString('base64url')).toBe(v['key_proof']);
    const pp = hkdf(ikm, L.passphraseProof);
    expect(pp.toString('base64url')).toBe(v['passphrase_proof']);
    expect(sha256(pp).toString('base64url')).toBe(v['passphrase_verifier']);
    expect(Buffer.concat([Buffer.from([1]), nonce, gcm(e, nonce, zkUtf8(L.header), Buffer.from(v['header']))]).toString('base64url')).toBe(v['envelope']);
  });
});

describe('vector "file"', () => {
  const v = byName('file');
  const key = bytes(v['key']);
  const nonce = bytes(v['nonce']);
  const header = JSON.parse(v['header']) as { file: { name: string; type: string; size: number } };
  const content = new Uint8Array(header.file.size).map((_, i) => i % 251);

  it('WebCrypto: IVs, AAD, envelope and records; a record out of place fails', async () => {
    expect(hex(zkIv(nonce, 1))).toBe(v['iv_1']);
    expect(hex(zkIv(nonce, 2))).toBe(v['iv_2']);
    expect(hex(zkChunkAad(2, true))).toBe(v['aad_2']);
    const keys = await zkKeys(key);
    expect(zkEncode(await zkSealHeader(keys, header, nonce))).toBe(v['envelope']);
    const body = await zkSealFile(keys, nonce, content);
    expect(body.length).toBe(v.body_bytes);
    expect(sha256(body).toString('hex')).toBe(v['body_sha256']);
    expect(sha256(body.subarray(0, 65552)).toString('hex')).toBe(v['record_1_sha256']);
    expect(hex(body.subarray(65552))).toBe(v['record_2']);
    expect(await zkOpenFile(keys, nonce, header.file.size, body)).toEqual(content);
    await expect(zkOpenFile(keys, nonce, header.file.size, body.subarray(0, body.length - 1))).rejects.toThrow();
    const swapped = new Uint8Array(body);
    swapped.set(body.subarray(0, 10), 65552);
    await expect(zkOpenFile(keys, nonce, header.file.size, swapped)).rejects.toThrow();
  });

  it('OpenSSL, from the description', () => {
    const e = hkdf(key, L.encryption);
    const iv = (j: number) => {
      const out = Buffer.from(nonce);
      out.writeBigUInt64BE(out.readBigUInt64BE(4) ^ BigInt(j), 4);
      return out;
    };
    const aad = (j: number, last: boolean) => Buffer.concat([Buffer.from(L.chunk), Buffer.from([0, 0, 0, j, last ? 1 : 0])]);
    const r1 = gcm(e, iv(1), aad(1, false), content.subarray(0, 65536));
    const r2 = gcm(e, iv(2), aad(2, true), content.subarray(65536));
    expect(sha256(r1).toString('hex')).toBe(v['record_1_sha256']);
    expect(r2.toString('hex')).toBe(v['record_2']);
  });
});

describe('vector "request"', () => {
  const v = byName('request');

  it('WebCrypto: the wrapped key, and the opening key opens it', async () => {
    const wrapped = await zkWrapKey(v['requester_public_key'], bytes(v['key']), v['ephemeral_opening_key']);
    expect(zkEncode(wrapped)).toBe(v['wrapped_key']);
    expect(hex(await zkUnwrapKey(v['requester_opening_key'], wrapped))).toBe(v['key']);
  });

  it('OpenSSL, from the description', () => {
    const requesterPublic = zkDecode(v['requester_public_key']);
    const ephemeral = createECDH('prime256v1');
    ephemeral.setPrivateKey(Buffer.from(zkDecode(v['ephemeral_opening_key']).subarray(0, 32)));
    const epub = ephemeral.getPublicKey();
    const z = ephemeral.computeSecret(requesterPublic);
    const w = hkdf(z, L.requestWrap, 32, Buffer.concat([epub, requesterPublic]));
    const wrapped = Buffer.concat([epub, gcm(w, Buffer.alloc(12), zkUtf8(L.wrappedKey), bytes(v['key']))]);
    expect(wrapped.toString('base64url')).toBe(v['wrapped_key']);
    // The requester's public key is the opening key's point.
    expect(Buffer.concat([Buffer.from([4]), zkDecode(v['requester_opening_key']).subarray(32)]).toString('base64url')).toBe(v['requester_public_key']);
  });
});
