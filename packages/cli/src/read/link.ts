import { zkParseLink, type Bytes } from '@hush/zk/format';
import { CliError, EXIT, usageError } from '../errors.ts';

/** A secret's link: the service, the secret's key, and the key from its fragment when it has one. */
export interface SecretLink {
  base: string;
  secretKey: string;
  key: Bytes | undefined;
}

/**
 * Reads a link `{BASE_URL}/secret/{secret_key}#{key}` (docs/zero-knowledge.md §1). Without a
 * fragment it is still a link: the answer to a request is opened with an opening key instead.
 * Messages never repeat the link, whose fragment is the key.
 */
export function parseSecretLink(text: string): SecretLink {
  const full = zkParseLink(text);
  if (full) return full;
  const match = /^(https?:\/\/[^\s#]+)\/secret\/([0-9a-z]{31})(#.*)?$/.exec(text.trim());
  if (!match) throw usageError('That is not a Hush secret link: {BASE_URL}/secret/{secret_key}#{key}.');
  if (match[3] !== undefined && match[3] !== '#')
    throw new CliError(EXIT.wrongKey, 'The key in this link (after #) is not a whole key: was the link cut short or altered? Nothing was read.');
  return { base: match[1] as string, secretKey: match[2] as string, key: undefined };
}
