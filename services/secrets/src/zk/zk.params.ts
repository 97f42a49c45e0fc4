import { z } from 'zod';
import { InvalidParameterError } from '../errors.js';
import { blankable, paramsParser, text, type FieldErrors, type ParamsParser } from '../http/params.js';
import { shareOptions, type TtlBounds } from '../http/secrets-params.js';

/**
 * The inputs of the zero-knowledge routes (docs/zero-knowledge.md): binary values travel in
 * base64url (RFC 4648 §5, no padding); each is checked for its exact size here, a 400 before
 * anything is read or written.
 */

/** base64url of exactly `bytes` bytes (no padding), as a Buffer. */
function exactly(bytes: number, description: string) {
  const chars = Math.ceil((bytes * 8) / 6);
  return z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}$`))
    .transform((v) => Buffer.from(v, 'base64url'))
    .refine((b) => b.length === bytes)
    .describe(`${description} (${bytes} bytes in base64url)`);
}

const envelope = text(
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{39,}$/)
    .transform((v) => Buffer.from(v, 'base64url'))
    .describe('The envelope the client made: version 1, its nonce, then the encrypted header (text and/or file description), in base64url'),
);
const keyVerifier = text(exactly(32, 'SHA-256 of the key proof'));
const passphraseVerifier = blankable(exactly(32, 'SHA-256 of the passphrase proof, when the secret has a passphrase').optional());
const file = blankable(z.uuid().optional().describe('The id of a complete upload of the caller (POST /zk/files), not yet shared'));
const wrappedKey = text(exactly(113, "The secret's key wrapped for the request's public key"));

const binaryErrors = (name: string, what: string): FieldErrors => ({ invalid: () => new InvalidParameterError(`${name} must be ${what} in base64url`) });
const ERRORS: Record<string, FieldErrors> = {
  envelope: binaryErrors('envelope', 'the envelope (at least 29 bytes)'),
  key_verifier: binaryErrors('key_verifier', 'a SHA-256 digest (32 bytes)'),
  passphrase_verifier: binaryErrors('passphrase_verifier', 'a SHA-256 digest (32 bytes)'),
  key_proof: binaryErrors('key_proof', 'the key proof (32 bytes)'),
  passphrase_proof: binaryErrors('passphrase_proof', 'the passphrase proof (32 bytes)'),
  wrapped_key: binaryErrors('wrapped_key', 'a wrapped key (113 bytes)'),
  file: { invalid: () => new InvalidParameterError('file must be the id of an upload (POST /zk/files)') },
  link_key_sealed: { invalid: () => new InvalidParameterError('link_key_sealed must be at most 200 base64url characters') },
};

/**
 * The link's key sealed for the mailer by a client that holds LINK_KEY_SEALING_KEY (identity's
 * handover): passed on to the recipient's e-mail, which this service cannot read.
 */
const linkKeySealed = blankable(
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/)
    .optional()
    .describe("The link's key sealed for the mailer (identity's credential handover): the recipient's e-mail then holds the full link. Opaque to this service."),
);

/** POST /zk/share: the envelope and verifiers, an optional file, and a share's options (ttl, recipient, notifications). */
function zkShareSchema(bounds: TtlBounds) {
  const options = shareOptions(bounds);
  return z.preprocess(
    options.preprocess,
    z.object({ envelope, key_verifier: keyVerifier, passphrase_verifier: passphraseVerifier, file, ...options.fields, link_key_sealed: linkKeySealed }),
  );
}

export type ZkShareInput = z.output<ReturnType<typeof zkShareSchema>>;

export function zkShareParser(bounds: TtlBounds): ParamsParser<z.ZodType<ZkShareInput>> {
  return paramsParser(zkShareSchema(bounds), { ...shareOptions(bounds).errors, ...ERRORS });
}

/** POST /zk/secret/{key}: the proofs of the link's key and, for a secret that has one, of the passphrase. */
const zkReadSchema = z.object({
  key_proof: text(exactly(32, 'The key proof: HKDF of the link’s key')),
  passphrase_proof: blankable(exactly(32, 'The passphrase proof: HKDF of the key and the stretched passphrase').optional()),
});
export type ZkReadInput = z.output<typeof zkReadSchema>;
export const zkReadInput = paramsParser(zkReadSchema, ERRORS);

/** POST /zk/request/{key}: the answer, encrypted by the sender's client, its key wrapped for the requester. */
const zkAnswerSchema = z.object({ envelope, key_verifier: keyVerifier, passphrase_verifier: passphraseVerifier, wrapped_key: wrappedKey });
export type ZkAnswerInput = z.output<typeof zkAnswerSchema>;
export const zkAnswerInput = paramsParser(zkAnswerSchema, ERRORS);
