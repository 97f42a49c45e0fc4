import { planOf } from '../accounts/plans.js';
import type { Principal } from '../auth/principal.js';
import { SecretTooLongError } from '../errors.js';
import type { Params } from '../http/params.js';
import type { SecretsDeps } from './deps.js';
import { generateValue } from './generate-value.js';
import { hashKey, newKey } from './keys.js';
import { characterCount, parseLength, parsePassphrase, parseRecipient, parseSecretValue, parseTtl } from './params.js';
import { presentCreated, type SecretResponse } from './presenter.js';
import { obfuscateAddress } from './recipient.js';

/**
 * share (spec 4.2): parse and check everything, then one INSERT. The recipient address is stored
 * sealed for the e-mail job (a later issue); the e-mail will carry the link, never the value.
 */
export async function shareSecret(deps: SecretsDeps, principal: Principal, params: Params): Promise<SecretResponse> {
  const value = parseSecretValue(params);
  const options = parseOptions(deps, params);
  const plan = planOf(principal.plan ?? (await deps.accounts.planOf(principal.custid)), deps.settings.defaultPlan);
  const length = characterCount(value);
  if (length > plan.maxSecretLength) throw new SecretTooLongError(length, plan.maxSecretLength, plan.name);
  return store(deps, principal, value, options);
}

/** generate: like share, with a value we make (returned once, stored only encrypted). */
export async function generateSecret(deps: SecretsDeps, principal: Principal, params: Params): Promise<SecretResponse> {
  const length = parseLength(params);
  const options = parseOptions(deps, params);
  const value = generateValue(length);
  return { ...(await store(deps, principal, value, options)), value };
}

interface Options {
  ttl: number;
  passphrase: string | undefined;
  recipient: string | undefined;
}

function parseOptions(deps: SecretsDeps, params: Params): Options {
  return { ttl: parseTtl(params, deps.settings.ttl), passphrase: parsePassphrase(params), recipient: parseRecipient(params) };
}

async function store(deps: SecretsDeps, principal: Principal, value: string, { ttl, passphrase, recipient }: Options): Promise<SecretResponse> {
  const secretKey = newKey();
  const metadataKey = newKey();
  const secretHash = hashKey(secretKey);
  const metadataHash = hashKey(metadataKey);
  const passphraseHash = passphrase === undefined ? null : await deps.passphrases.hash(passphrase);
  const recipientObfuscated = recipient === undefined ? null : obfuscateAddress(recipient);
  const { createdAt } = await deps.secrets.insert({
    metadataHash,
    metadataShortkey: metadataKey.slice(0, 6),
    secretHash,
    custid: principal.custid,
    ttl,
    passphraseHash,
    recipientObfuscated,
    recipientSealed: recipient === undefined ? null : deps.crypto.sealRecipient(metadataHash, recipient),
    secretKeySealed: deps.crypto.sealSecretKey(metadataKey, metadataHash, secretKey),
    ciphertext: deps.crypto.sealValue(secretKey, secretHash, passphrase, value),
  });
  return presentCreated({
    custid: principal.custid,
    metadataKey,
    secretKey,
    ttl,
    recipient: recipientObfuscated,
    createdAt,
    passphraseRequired: passphraseHash !== null,
  });
}
