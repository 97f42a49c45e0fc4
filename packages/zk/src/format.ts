/**
 * The zero-knowledge format, version 1 (docs/zero-knowledge.md is its public description; the
 * test vectors there are checked against these functions).
 *
 * Everything here uses WebCrypto (`crypto.subtle`) and nothing else, so the same code runs in
 * Node (identity's handover, tests, the command line) and in the browser: the pages' script is
 * assembled from these very functions (script.ts, Function.prototype.toString). Hence the rules of
 * this file: every function is a standalone `function` declaration that reaches only its
 * arguments, the globals both platforms have (crypto, TextEncoder, TextDecoder, btoa, atob) and
 * the other functions listed in FORMAT_FUNCTIONS; constants live inside zkParams.
 */

/** A byte array backed by an ArrayBuffer (what WebCrypto takes). */
export type Bytes = Uint8Array<ArrayBuffer>;

/** What a zero-knowledge secret holds, encrypted: a text, a file's description, or both. */
export interface ZkHeader {
  text?: string;
  file?: { name: string; type: string; size: number };
}

/** The keys of one secret: the content key, the two proofs and their verifiers (base64url). */
export interface ZkKeys {
  encryption: CryptoKey;
  keyProof: Bytes;
  passphraseProof: Bytes | undefined;
  keyVerifier: string;
  passphraseVerifier: string | undefined;
}

/** The constants of version 1. */
export function zkParams() {
  return {
    version: 1,
    keyBytes: 32,
    nonceBytes: 12,
    tagBytes: 16,
    /** Plaintext bytes of every file record but the last. */
    recordBytes: 65536,
    pbkdf2Iterations: 600000,
    labels: {
      encryption: 'hush-zk/1 encryption',
      keyProof: 'hush-zk/1 key-proof',
      passphraseSalt: 'hush-zk/1 passphrase-salt',
      passphraseProof: 'hush-zk/1 passphrase-proof',
      header: 'hush-zk/1 header',
      chunk: 'hush-zk/1 chunk',
      requestWrap: 'hush-zk/1 request-wrap',
      wrappedKey: 'hush-zk/1 wrapped-key',
    },
  };
}

/** base64url without padding (RFC 4648 §5). */
export function zkEncode(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url, padding optional; anything else throws. */
export function zkDecode(text: string): Bytes {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function zkConcat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function zkUtf8(text: string): Bytes {
  return new TextEncoder().encode(text);
}

export async function zkSha256(bytes: Bytes): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

/** HKDF-SHA256 (RFC 5869) with an empty salt unless one is given. */
export async function zkHkdf(ikm: Bytes, info: string, length: number, salt?: Bytes): Promise<Bytes> {
  const base = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: salt ?? new Uint8Array(0), info: zkUtf8(info) }, base, length * 8);
  return new Uint8Array(bits);
}

/** A fresh 256-bit key (the link's fragment) or 96-bit nonce. */
export function zkRandom(length: number): Bytes {
  return crypto.getRandomValues(new Uint8Array(length));
}

/**
 * The keys of a secret from its 256-bit key and, when it has one, its passphrase. The passphrase
 * goes through PBKDF2-HMAC-SHA256 (600,000 iterations, salted from the key) on the client, and
 * then into the content key and the passphrase proof; the key proof never depends on it, so a
 * reader holding the right link is told apart from one holding a wrong passphrase.
 */
export async function zkKeys(key: Bytes, passphrase?: string): Promise<ZkKeys> {
  const p = zkParams();
  if (key.length !== p.keyBytes) throw new Error('a key is 32 bytes');
  let material = key;
  if (passphrase !== undefined) {
    const salt = await zkHkdf(key, p.labels.passphraseSalt, 16);
    const password = await crypto.subtle.importKey('raw', zkUtf8(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
    const stretched = new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: p.pbkdf2Iterations }, password, 256));
    material = zkConcat(key, stretched);
  }
  const raw = await zkHkdf(material, p.labels.encryption, 32);
  const encryption = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  const keyProof = await zkHkdf(key, p.labels.keyProof, 32);
  const passphraseProof = passphrase === undefined ? undefined : await zkHkdf(material, p.labels.passphraseProof, 32);
  return {
    encryption,
    keyProof,
    passphraseProof,
    keyVerifier: zkEncode(await zkSha256(keyProof)),
    passphraseVerifier: passphraseProof === undefined ? undefined : zkEncode(await zkSha256(passphraseProof)),
  };
}

/** The IV of message `index` (0: the header, 1..n: the file's records): the nonce XOR the index in its last 8 bytes. */
export function zkIv(nonce: Bytes, index: number): Bytes {
  const iv = new Uint8Array(nonce);
  let n = index;
  for (let i = 11; i >= 4 && n > 0; i--) {
    iv[i] = (iv[i] as number) ^ (n % 256);
    n = Math.floor(n / 256);
  }
  return iv;
}

/** The AAD of file record `index` (1-based): the label, the index (4 bytes, big-endian), 1 for the last record else 0. */
export function zkChunkAad(index: number, last: boolean): Bytes {
  const tail = new Uint8Array(5);
  new DataView(tail.buffer).setUint32(0, index);
  tail[4] = last ? 1 : 0;
  return zkConcat(zkUtf8(zkParams().labels.chunk), tail);
}

/**
 * The envelope, what the server stores as the secret: version byte 1, the 12-byte nonce, then the
 * header (UTF-8 JSON: `text` and/or `file`) under AES-256-GCM with IV = nonce and its own AAD.
 */
export async function zkSealHeader(keys: ZkKeys, header: ZkHeader, nonce: Bytes): Promise<Bytes> {
  const p = zkParams();
  if (nonce.length !== p.nonceBytes) throw new Error('a nonce is 12 bytes');
  const json: ZkHeader = {};
  if (header.text !== undefined) json.text = header.text;
  if (header.file !== undefined) json.file = { name: header.file.name, type: header.file.type, size: header.file.size };
  if (json.text === undefined && json.file === undefined) throw new Error('a secret holds a text, a file or both');
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: zkIv(nonce, 0), additionalData: zkUtf8(p.labels.header) }, keys.encryption, zkUtf8(JSON.stringify(json)));
  return zkConcat(new Uint8Array([p.version]), nonce, new Uint8Array(sealed));
}

/** Opens an envelope: its header and nonce (the file's records need it). Throws when the key, passphrase or bytes are wrong. */
export async function zkOpenHeader(keys: ZkKeys, envelope: Bytes): Promise<{ header: ZkHeader; nonce: Bytes }> {
  const p = zkParams();
  if (envelope.length < 1 + p.nonceBytes + p.tagBytes || envelope[0] !== p.version) throw new Error('not a version 1 envelope');
  const nonce = envelope.slice(1, 1 + p.nonceBytes);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: zkIv(nonce, 0), additionalData: zkUtf8(p.labels.header) }, keys.encryption, envelope.subarray(1 + p.nonceBytes));
  const header: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plain));
  if (typeof header !== 'object' || header === null) throw new Error('not a version 1 header');
  const { text, file } = header as ZkHeader;
  const fileOk = file === undefined || (typeof file.name === 'string' && typeof file.type === 'string' && Number.isSafeInteger(file.size) && file.size >= 0);
  if ((text !== undefined && typeof text !== 'string') || !fileOk || (text === undefined && file === undefined)) throw new Error('not a version 1 header');
  return { header, nonce };
}

/** How many records a file of `size` bytes has (an empty file has one, empty). */
export function zkRecordCount(size: number): number {
  return Math.max(1, Math.ceil(size / zkParams().recordBytes));
}

/** Encrypts record `index` (1-based) of a file; `last` for the final one. */
export async function zkSealRecord(keys: ZkKeys, nonce: Bytes, index: number, last: boolean, plain: Bytes): Promise<Bytes> {
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: zkIv(nonce, index), additionalData: zkChunkAad(index, last) }, keys.encryption, plain);
  return new Uint8Array(sealed);
}

export async function zkOpenRecord(keys: ZkKeys, nonce: Bytes, index: number, last: boolean, sealed: Bytes): Promise<Bytes> {
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: zkIv(nonce, index), additionalData: zkChunkAad(index, last) }, keys.encryption, sealed);
  return new Uint8Array(plain);
}

/** The link of a secret: its page, with the key as the fragment (which browsers never send). */
export function zkLink(base: string, secretKey: string, key: Bytes): string {
  return `${base.replace(/\/+$/, '')}/secret/${secretKey}#${zkEncode(key)}`;
}

/** A link's parts; undefined when it is not a version 1 link (a key of 43 base64url characters). */
export function zkParseLink(link: string): { base: string; secretKey: string; key: Bytes } | undefined {
  const match = /^(.*)\/secret\/([0-9a-z]{31})#([A-Za-z0-9_-]{43})$/.exec(link.trim());
  if (!match) return undefined;
  const key = zkDecode(match[3] as string);
  return key.length === 32 ? { base: match[1] as string, secretKey: match[2] as string, key } : undefined;
}

/**
 * A requester's key pair (ECDH P-256): the public key (65 bytes, uncompressed point) goes to the
 * server with the request; the opening key (d | x | y, 96 bytes) stays with the requester.
 */
export async function zkRequestKeyPair(): Promise<{ publicKey: string; openingKey: string }> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
  const jwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const opening = zkConcat(zkDecode(jwk.d as string), zkDecode(jwk.x as string), zkDecode(jwk.y as string));
  return { publicKey: zkEncode(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))), openingKey: zkEncode(opening) };
}

/** An opening key (d | x | y) as a WebCrypto private key, and its public point. */
export async function zkOpeningKey(openingKey: string): Promise<{ privateKey: CryptoKey; publicKey: Bytes }> {
  const bytes = zkDecode(openingKey);
  if (bytes.length !== 96) throw new Error('an opening key is 96 bytes');
  const jwk = { kty: 'EC', crv: 'P-256', d: zkEncode(bytes.subarray(0, 32)), x: zkEncode(bytes.subarray(32, 64)), y: zkEncode(bytes.subarray(64)), ext: true };
  const privateKey = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
  return { privateKey, publicKey: zkConcat(new Uint8Array([4]), bytes.subarray(32)) };
}

/** The key that wraps a secret's key for a requester: HKDF over the ECDH secret, salted with both public points. */
export async function zkWrapKeyOf(privateKey: CryptoKey, publicKey: Bytes, ephemeralPublic: Bytes, requesterPublic: Bytes): Promise<CryptoKey> {
  const peer = await crypto.subtle.importKey('raw', publicKey, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const shared = new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: peer }, privateKey, 256));
  const raw = await zkHkdf(shared, zkParams().labels.requestWrap, 32, zkConcat(ephemeralPublic, requesterPublic));
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/**
 * Wraps a secret's key for the requester whose public key is `requesterPublicKey`: an ephemeral
 * ECDH P-256 pair (`ephemeralOpeningKey` to make it reproducible, in the opening key's encoding),
 * the wrap key from zkWrapKeyOf, AES-256-GCM with a zero IV (the wrap key is used once).
 * The result: the ephemeral public point (65 bytes) | the sealed key (48 bytes).
 */
export async function zkWrapKey(requesterPublicKey: string, key: Bytes, ephemeralOpeningKey?: string): Promise<Bytes> {
  const requester = zkDecode(requesterPublicKey);
  if (requester.length !== 65 || requester[0] !== 4) throw new Error('a public key is a 65-byte uncompressed P-256 point');
  const ephemeral = await zkOpeningKey(ephemeralOpeningKey ?? (await zkRequestKeyPair()).openingKey);
  const wrapKey = await zkWrapKeyOf(ephemeral.privateKey, requester, ephemeral.publicKey, requester);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12), additionalData: zkUtf8(zkParams().labels.wrappedKey) }, wrapKey, key);
  return zkConcat(ephemeral.publicKey, new Uint8Array(sealed));
}

/** The secret's key from a wrapped key and the requester's opening key; throws when the opening key is not the right one. */
export async function zkUnwrapKey(openingKey: string, wrapped: Bytes): Promise<Bytes> {
  if (wrapped.length !== 65 + 48) throw new Error('a wrapped key is 113 bytes');
  const mine = await zkOpeningKey(openingKey);
  const ephemeralPublic = wrapped.slice(0, 65);
  const wrapKey = await zkWrapKeyOf(mine.privateKey, ephemeralPublic, ephemeralPublic, mine.publicKey);
  const key = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: new Uint8Array(12), additionalData: zkUtf8(zkParams().labels.wrappedKey) }, wrapKey, wrapped.subarray(65));
  return new Uint8Array(key);
}

/** The functions of the format, in dependency order: what the pages' script is made of. */
export const FORMAT_FUNCTIONS: readonly ((...args: never[]) => unknown)[] = [
  zkParams,
  zkEncode,
  zkDecode,
  zkConcat,
  zkUtf8,
  zkSha256,
  zkHkdf,
  zkRandom,
  zkKeys,
  zkIv,
  zkChunkAad,
  zkSealHeader,
  zkOpenHeader,
  zkRecordCount,
  zkSealRecord,
  zkOpenRecord,
  zkLink,
  zkParseLink,
  zkRequestKeyPair,
  zkOpeningKey,
  zkWrapKeyOf,
  zkWrapKey,
  zkUnwrapKey,
];
