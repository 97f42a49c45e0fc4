import {
  zkConcat,
  zkDecode,
  zkEncode,
  zkKeys,
  zkLink,
  zkOpenHeader,
  zkOpenRecord,
  zkParams,
  zkParseLink,
  zkRandom,
  zkRecordCount,
  zkRequestKeyPair,
  zkSealHeader,
  zkSealRecord,
  zkUnwrapKey,
  zkWrapKey,
  type Bytes,
  type ZkHeader,
  type ZkKeys,
} from './format.ts';

/**
 * A client of the secrets service's zero-knowledge API (docs/zero-knowledge.md) for programs:
 * identity's credential handover, the tests, the command line. It encrypts and decrypts here,
 * with the format's functions, and sends only envelopes, verifiers and proofs. Files are held in
 * memory whole on this side (a client's choice; the service streams them).
 *
 * The command line runs this file and format.ts from the repository as they are (Node strips
 * their types; package.json exports them as `@hush/zk/client` and `@hush/zk/format`), so both
 * hold erasable TypeScript only (tsconfig's erasableSyntaxOnly) and import each other by `.ts`.
 */

export interface ZkService {
  /** The service's origin (BASE_URL); the API is under /api/v1. */
  baseUrl: string;
  /** The Authorization header to send, if any (needed to share and upload; a requester's to read an answer). */
  authorization?: string | (() => Promise<string>);
}

/** A refusal of the service: its status and `{message, code}`. */
export class ZkApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ZkApiError';
    this.status = status;
    this.code = code;
  }
}

export interface ZkShareOptions {
  passphrase?: string;
  ttl?: number;
  recipient?: string;
  recipient_only?: boolean;
  notify?: string;
  notify_email?: string;
}

export interface ZkContent {
  text?: string;
  file?: { name: string; type: string; bytes: Uint8Array };
}

export interface ZkShared {
  /** The full link, key included: whoever holds it can read the secret once. */
  link: string;
  secretKey: string;
  metadataKey: string;
  /** The service's answer as it came (the secret object, with `link` without its key). */
  answer: Record<string, unknown>;
}

async function call(
  service: ZkService,
  method: string,
  path: string,
  body?: { json?: unknown; bytes?: Bytes },
): Promise<{ status: number; json: Record<string, unknown>; res: Response }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const auth = typeof service.authorization === 'function' ? await service.authorization() : service.authorization;
  if (auth !== undefined) headers['authorization'] = auth;
  if (body?.json !== undefined) headers['content-type'] = 'application/json';
  if (body?.bytes !== undefined) headers['content-type'] = 'application/octet-stream';
  const res = await fetch(`${service.baseUrl.replace(/\/+$/, '')}/api/v1${path}`, {
    method,
    headers,
    body: body?.json !== undefined ? JSON.stringify(body.json) : body?.bytes,
    redirect: 'error',
  });
  if (res.headers.get('content-type')?.startsWith('application/octet-stream')) return { status: res.status, json: {}, res };
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status >= 400) {
    const { code, message } = json;
    throw new ZkApiError(res.status, typeof code === 'string' ? code : 'error', typeof message === 'string' ? message : `HTTP ${res.status}`);
  }
  return { status: res.status, json, res };
}

/** The encrypted records of a file, one after the other (the upload's body). */
export async function zkSealFile(keys: ZkKeys, nonce: Bytes, bytes: Uint8Array): Promise<Bytes> {
  const size = zkParams().recordBytes;
  const count = zkRecordCount(bytes.length);
  const records: Bytes[] = [];
  for (let i = 1; i <= count; i++) records.push(await zkSealRecord(keys, nonce, i, i === count, new Uint8Array(bytes.subarray((i - 1) * size, i * size))));
  return zkConcat(...records);
}

/** The file's bytes from its encrypted records; throws when a record is wrong, missing or extra. */
export async function zkOpenFile(keys: ZkKeys, nonce: Bytes, size: number, sealed: Uint8Array): Promise<Bytes> {
  const p = zkParams();
  const count = zkRecordCount(size);
  const expected = size + count * p.tagBytes;
  if (sealed.length !== expected) throw new Error('the file’s records do not have the size its header says');
  const parts: Bytes[] = [];
  const step = p.recordBytes + p.tagBytes;
  for (let i = 1; i <= count; i++) parts.push(await zkOpenRecord(keys, nonce, i, i === count, new Uint8Array(sealed.subarray((i - 1) * step, i * step))));
  return zkConcat(...parts);
}

function headerOf(content: ZkContent): ZkHeader {
  const header: ZkHeader = {};
  if (content.text !== undefined) header.text = content.text;
  if (content.file !== undefined) header.file = { name: content.file.name, type: content.file.type, size: content.file.bytes.length };
  return header;
}

/** Encrypts `content` with a fresh key, uploads its file if any, shares it: the full link. */
export async function zkShare(service: ZkService, content: ZkContent, options: ZkShareOptions = {}): Promise<ZkShared> {
  const key = zkRandom(32);
  const nonce = zkRandom(12);
  const keys = await zkKeys(key, options.passphrase);
  const envelope = await zkSealHeader(keys, headerOf(content), nonce);
  let file: string | undefined;
  if (content.file !== undefined) {
    const upload = await call(service, 'POST', '/zk/files', { bytes: await zkSealFile(keys, nonce, content.file.bytes) });
    file = String(upload.json['file']);
  }
  const { passphrase: _passphrase, ...rest } = options;
  const { json } = await call(service, 'POST', '/zk/share', {
    json: {
      envelope: zkEncode(envelope),
      key_verifier: keys.keyVerifier,
      ...(keys.passphraseVerifier !== undefined ? { passphrase_verifier: keys.passphraseVerifier } : {}),
      ...(file !== undefined ? { file } : {}),
      ...rest,
    },
  });
  const secretKey = String(json['secret_key']);
  return { link: zkLink(service.baseUrl, secretKey, key), secretKey, metadataKey: String(json['metadata_key']), answer: json };
}

/** What a read gives back. */
export interface ZkOpened {
  text?: string;
  file?: { name: string; type: string; bytes: Bytes };
}

/** Reads a secret from its full link, once; `passphrase` when it has one. Nothing is consumed when the link's key is wrong. */
export async function zkRead(service: Omit<ZkService, 'baseUrl'> & { baseUrl?: string }, link: string, passphrase?: string): Promise<ZkOpened> {
  const parts = zkParseLink(link);
  if (!parts) throw new Error('not a zero-knowledge link: {BASE_URL}/secret/{secret_key}#{key}');
  return zkReadWithKey({ ...service, baseUrl: service.baseUrl ?? parts.base }, parts.secretKey, parts.key, passphrase);
}

/** Reads a secret from its key and the secret's 256-bit key (a link's parts, or an unwrapped answer's). */
export async function zkReadWithKey(service: ZkService, secretKey: string, key: Bytes, passphrase?: string): Promise<ZkOpened> {
  const keys = await zkKeys(key, passphrase);
  const { json } = await call(service, 'POST', `/zk/secret/${secretKey}`, {
    json: { key_proof: zkEncode(keys.keyProof), ...(keys.passphraseProof !== undefined ? { passphrase_proof: zkEncode(keys.passphraseProof) } : {}) },
  });
  const { header, nonce } = await zkOpenHeader(keys, zkDecode(String(json['envelope'])));
  const opened: ZkOpened = {};
  if (header.text !== undefined) opened.text = header.text;
  const file = json['file'] as { url: string } | undefined;
  if (header.file !== undefined && file !== undefined) {
    const { res } = await call(service, 'GET', file.url.replace(/^\/api\/v1/, ''));
    const sealed = new Uint8Array(await res.arrayBuffer());
    opened.file = { name: header.file.name, type: header.file.type, bytes: await zkOpenFile(keys, nonce, header.file.size, sealed) };
  }
  return opened;
}

/** What a zero-knowledge secret asks of its reader (GET /zk/secret/{key}); consumes nothing. */
export async function zkInfo(service: ZkService, secretKey: string): Promise<Record<string, unknown>> {
  return (await call(service, 'GET', `/zk/secret/${secretKey}`)).json;
}

/** Reads the answer to a zero-knowledge request: its wrapped key opened with the requester's opening key. */
export async function zkReadAnswer(service: ZkService, secretKey: string, openingKey: string, passphrase?: string): Promise<ZkOpened> {
  const info = await zkInfo(service, secretKey);
  const wrapped = info['wrapped_key'];
  if (typeof wrapped !== 'string') throw new Error('this secret is not the answer to a zero-knowledge request');
  return zkReadWithKey(service, secretKey, await zkUnwrapKey(openingKey, zkDecode(wrapped)), passphrase);
}

/** Answers a zero-knowledge request (its link's key) with `text`, encrypted here for the requester. */
export async function zkAnswer(service: ZkService, requestKey: string, text: string, passphrase?: string): Promise<Record<string, unknown>> {
  const request = (await call(service, 'GET', `/request/${requestKey}`)).json;
  const publicKey = request['public_key'];
  if (typeof publicKey !== 'string') throw new Error('this request has no public key: it takes secrets encrypted by the service');
  const key = zkRandom(32);
  const keys = await zkKeys(key, passphrase);
  const envelope = await zkSealHeader(keys, { text }, zkRandom(12));
  return (
    await call(service, 'POST', `/zk/request/${requestKey}`, {
      json: {
        envelope: zkEncode(envelope),
        key_verifier: keys.keyVerifier,
        ...(keys.passphraseVerifier !== undefined ? { passphrase_verifier: keys.passphraseVerifier } : {}),
        wrapped_key: zkEncode(await zkWrapKey(publicKey, key)),
      },
    })
  ).json;
}

export interface ZkRequestOptions {
  /** What the secret is for, shown to the person asked. */
  label: string;
  ttl?: number;
  secret_ttl?: number;
  passphrase_policy?: 'optional' | 'required' | 'none';
  recipient?: string;
}

/**
 * Asks for a secret (§5): a fresh key pair, whose public key goes with the request. The answer's
 * key is wrapped for it, so only the opening key returned here opens the answer: it is never sent;
 * keep it (zkReadAnswer, zkUnwrapKey).
 */
export async function zkRequest(service: ZkService, options: ZkRequestOptions): Promise<{ request: Record<string, unknown>; openingKey: string }> {
  const { publicKey, openingKey } = await zkRequestKeyPair();
  const { json } = await call(service, 'POST', '/requests', { json: { ...options, public_key: publicKey } });
  return { request: json, openingKey };
}

/** An answer to one of the caller's zero-knowledge requests, not read yet. */
export interface ZkWaitingAnswer {
  label: string;
  /** The secret's link, without a key: the request's opening key opens it (its `wrapped_key`). */
  link: string;
  metadataKey: string;
}

/**
 * The answers waiting for the caller (§6, Requests): its newest secrets (`recent`) that answered a
 * request and are unread, each with its link from its metadata (looking marks it `viewed`).
 */
export async function zkWaitingAnswers(service: ZkService): Promise<ZkWaitingAnswer[]> {
  const recent: unknown = (await call(service, 'GET', '/private/recent')).json;
  const answers: ZkWaitingAnswer[] = [];
  for (const item of Array.isArray(recent) ? (recent as Record<string, unknown>[]) : []) {
    const { request_label: label, metadata_key: metadataKey, state, zero_knowledge: zk } = item;
    if (typeof label !== 'string' || typeof metadataKey !== 'string' || zk !== true || (state !== 'new' && state !== 'viewed')) continue;
    const secretKey = (await call(service, 'GET', `/private/${metadataKey}`)).json['secret_key'];
    if (typeof secretKey === 'string') answers.push({ label, link: `${service.baseUrl.replace(/\/+$/, '')}/secret/${secretKey}`, metadataKey });
  }
  return answers;
}
