import type { ApisRepository } from '../apis/apis.repository.js';
import type { KeysRepository } from './keys.repository.js';
import type { SigningKeys } from './keys.js';

/** ID tokens are signed with the same keys and live this long (oidc-provider's default IdToken TTL). */
export const ID_TOKEN_TTL = 3600;

export type RotationStep =
  | { step: 'added-next'; kid: string; retired: string[] }
  | { step: 'waiting'; kid: string; promoteAfter: Date; retired: string[] }
  | { step: 'promoted'; kid: string; retiring: string | undefined; retireAfterSeconds: number; retired: string[] };

/**
 * What key rotation may reach; each use-case takes the narrowest Pick of it. Wired in context.ts.
 * `keyReloadSeconds`: how often every process reloads the published key set.
 */
export interface KeyRotationDeps {
  signingKeys: SigningKeys;
  keysRepository: KeysRepository;
  apis: ApisRepository;
  keyReloadSeconds: number;
}

/*
 * Zero-downtime rotation in three moves, each safe to repeat (run `rotateKeysStep` from cron):
 * 1. add a `next` key: published in the JWKS, not yet signing;
 * 2. once every process has reloaded (keyReloadSeconds), promote it: it signs, the old key is `retiring`;
 * 3. delete `retiring` keys once every token they signed has expired.
 */

/** How long a key that stopped signing stays published: the longest token TTL, plus a reload and a margin. */
export async function retireAfterSeconds(deps: Pick<KeyRotationDeps, 'apis' | 'keyReloadSeconds'>): Promise<number> {
  return Math.max(await deps.apis.maxAccessTokenTtl(), ID_TOKEN_TTL) + deps.keyReloadSeconds + 60;
}

export async function addNextKey(deps: Pick<KeyRotationDeps, 'signingKeys' | 'keysRepository'>): Promise<string> {
  const existing = (await deps.keysRepository.list()).find((k) => k.status === 'next');
  return existing?.kid ?? deps.signingKeys.add('next');
}

export async function promoteNextKey(
  deps: Pick<KeyRotationDeps, 'keysRepository' | 'apis' | 'keyReloadSeconds'>,
): Promise<{ kid: string; retiring: string | undefined; retireAfterSeconds: number } | undefined> {
  const seconds = await retireAfterSeconds(deps);
  const result = await deps.keysRepository.promoteNext(seconds);
  return result && { kid: result.promoted, retiring: result.retiring, retireAfterSeconds: seconds };
}

export function retireKeys(deps: Pick<KeyRotationDeps, 'keysRepository'>, force = false): Promise<string[]> {
  return deps.keysRepository.deleteRetired(force);
}

/** One safe step of the rotation: whichever of the three moves is due. */
export async function rotateKeysStep(deps: KeyRotationDeps, now = new Date()): Promise<RotationStep> {
  const retired = await retireKeys(deps);
  const next = (await deps.keysRepository.list()).find((k) => k.status === 'next');
  if (!next) return { step: 'added-next', kid: await deps.signingKeys.add('next'), retired };
  const promoteAfter = new Date(next.createdAt.getTime() + deps.keyReloadSeconds * 2000);
  if (now < promoteAfter) return { step: 'waiting', kid: next.kid, promoteAfter, retired };
  const promoted = await promoteNextKey(deps);
  if (!promoted) return { step: 'added-next', kid: await deps.signingKeys.add('next'), retired };
  return { step: 'promoted', ...promoted, retired };
}
