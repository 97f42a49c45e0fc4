import { z } from 'zod';
import { PASSPHRASE_POLICIES } from '../http/secrets-params.js';
import { key, seconds, unix, unixTime } from '../secrets/presenter.js';
import type { OpenRequest } from '../secrets/requests.js';
import type { Upload } from './zk-files.js';
import type { ZkRead, ZkSecretInfo } from './zk-read.js';

/**
 * The answers of the zero-knowledge routes (docs/zero-knowledge.md), the same in both API
 * dialects (Onetime Secret has no such routes); the OpenAPI document is generated from these
 * schemas. Binary values are base64url without padding.
 */

/** Added to a dialect's created-secret answer by POST /zk/share. */
export const zkCreatedFields = {
  zero_knowledge: z.literal(true),
  link: z.string().describe('The secret’s page, {BASE_URL}/secret/{secret_key}: the client appends "#" and the key to make the link'),
};

export const zkSecretInfoResponse = z.strictObject({
  secret_key: key,
  zero_knowledge: z.literal(true),
  passphrase_required: z.boolean().describe('The read needs the passphrase proof as well'),
  recipient_only: z.literal(true).optional().describe('Only its recipient can read it (a user token of that verified address)'),
  recipient: z.string().optional().describe('The recipient’s address, obfuscated: only for a recipient-only secret'),
  requested: z.literal(true).optional().describe('The answer to a request: only the requester’s account can read it'),
  wrapped_key: z.string().optional().describe('The answer to a zero-knowledge request: its key, wrapped for the requester’s public key (113 bytes)'),
  file_size: seconds.optional().describe('Bytes of its attached file as stored (encrypted records)'),
  expires: unixTime,
});

export const zkReadResponse = z.strictObject({
  secret_key: key,
  envelope: z.string().describe('The envelope its creator’s client made (base64url): the secret is deleted'),
  file: z
    .strictObject({
      url: z.string().describe('GET it once within `expires` for the encrypted records; the path holds the download token'),
      size: seconds.describe('Bytes of the encrypted records'),
      expires: unixTime,
    })
    .optional()
    .describe('Its file, when it has one'),
});

export const zkUploadResponse = z.strictObject({
  file: z.uuid().describe('The upload’s id, for the `file` parameter of POST /zk/share'),
  size: seconds.describe('Bytes stored'),
  expires: unixTime.describe('A share must attach it before then'),
});

export const openRequestResponse = z.strictObject({
  label: z.string(),
  requester: z.string(),
  passphrase_policy: z.enum(PASSPHRASE_POLICIES),
  max_length: z.int().min(1).describe('Characters the secret may have (the requester’s plan)'),
  expires: unixTime,
  public_key: z.string().optional().describe('A zero-knowledge request: the requester’s ECDH P-256 public key; answer with POST /zk/request/{request_key}'),
});

export function presentZkSecretInfo(i: ZkSecretInfo): z.output<typeof zkSecretInfoResponse> {
  return {
    secret_key: i.secretKey,
    zero_knowledge: true,
    passphrase_required: i.passphraseRequired,
    ...(i.recipient !== null ? { recipient_only: true as const, recipient: i.recipient } : {}),
    ...(i.reader !== null ? { requested: true as const } : {}),
    ...(i.wrappedKey !== null ? { wrapped_key: i.wrappedKey.toString('base64url') } : {}),
    ...(i.fileBytes !== null ? { file_size: i.fileBytes } : {}),
    expires: unix(i.expiresAt),
  };
}

export function presentZkRead(r: ZkRead, downloadPath: (token: string) => string, now = Date.now()): z.output<typeof zkReadResponse> {
  return {
    secret_key: r.secretKey,
    envelope: r.envelope.toString('base64url'),
    ...(r.file ? { file: { url: downloadPath(r.file.token), size: r.file.bytes, expires: Math.floor(now / 1000) + r.file.seconds } } : {}),
  };
}

export const presentUpload = (u: Upload, now = Date.now()): z.output<typeof zkUploadResponse> => ({ file: u.id, size: u.bytes, expires: Math.floor(now / 1000) + u.expiresIn });

export const presentOpenRequest = (r: OpenRequest): z.output<typeof openRequestResponse> => ({
  label: r.label,
  requester: r.requester,
  passphrase_policy: r.passphrasePolicy,
  max_length: r.maxSecretLength,
  expires: unix(r.expiresAt),
  ...(r.publicKey !== null ? { public_key: r.publicKey } : {}),
});
