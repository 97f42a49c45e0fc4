import type { KeysRepository } from './keys.repository.js';
import { SIGNING_ALGS, type SigningKeys } from './keys.js';
import type { ApisRepository } from '../apis/index.js';

/** ID tokens are signed with the same keys and live this long (oidc-provider's default IdToken TTL). */
export const ID_TOKEN_TTL = 3600;

export type RotationStep =
  | { step: 'added-next'; kids: string[]; retired: string[] }
  | { step: 'waiting'; kids: string[]; promoteAfter: Date; retired: string[] }
  | { step: 'promoted'; kids: string[]; retiring: string[]; retireAfterSeconds: number; retired: string[] };

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
 * Zero-downtime rotation in three moves, each safe to repeat (run `rotateKeysStep` from cron),
 * taken by every algorithm (RS256, ES256) in lockstep:
 * 1. add a `next` key per algorithm: published in the JWKS, not yet signing;
 * 2. once every process has reloaded (keyReloadSeconds), promote them: they sign, the old keys are `retiring`;
 * 3. delete `retiring` keys once every token they signed has expired.
 */

/** How long a key that stopped signing stays published: the longest token TTL, plus a reload and a margin. */
export async function retireAfterSeconds(deps: Pick<KeyRotationDeps, 'apis' | 'keyReloadSeconds'>): Promise<number> {
  return Math.max(await deps.apis.maxAccessTokenTtl(), ID_TOKEN_TTL) + deps.keyReloadSeconds + 60;
}

/** A `next` key for every algorithm that has none; returns the next keys' kids. */
export async function addNextKey(deps: Pick<KeyRotationDeps, 'signingKeys' | 'keysRepository'>): Promise<string[]> {
  const existing = (await deps.keysRepository.list()).filter((k) => k.status === 'next');
  const kids: string[] = [];
  for (const alg of SIGNING_ALGS) {
    kids.push(existing.find((k) => k.alg === alg)?.kid ?? (await deps.signingKeys.add('next', alg)));
  }
  return kids;
}

export async function promoteNextKey(
  deps: Pick<KeyRotationDeps, 'keysRepository' | 'apis' | 'keyReloadSeconds'>,
): Promise<{ kids: string[]; retiring: string[]; retireAfterSeconds: number } | undefined> {
  const seconds = await retireAfterSeconds(deps);
  const result = await deps.keysRepository.promoteNext(seconds);
  return result && { kids: result.promoted, retiring: result.retiring, retireAfterSeconds: seconds };
}

export function retireKeys(deps: Pick<KeyRotationDeps, 'keysRepository'>, force = false): Promise<string[]> {
  return deps.keysRepository.deleteRetired(force);
}

/** One safe step of the rotation: whichever of the three moves is due. */
export async function rotateKeysStep(deps: KeyRotationDeps, now = new Date()): Promise<RotationStep> {
  const retired = await retireKeys(deps);
  const nexts = (await deps.keysRepository.list()).filter((k) => k.status === 'next');
  // Every algorithm needs its next key before any is promoted (a crash between two adds leaves one).
  if (SIGNING_ALGS.some((alg) => !nexts.some((k) => k.alg === alg))) return { step: 'added-next', kids: await addNextKey(deps), retired };
  const newest = Math.max(...nexts.map((k) => k.createdAt.getTime()));
  const promoteAfter = new Date(newest + deps.keyReloadSeconds * 2000);
  if (now < promoteAfter) return { step: 'waiting', kids: nexts.map((k) => k.kid), promoteAfter, retired };
  const promoted = await promoteNextKey(deps);
  if (!promoted) return { step: 'added-next', kids: await addNextKey(deps), retired };
  return { step: 'promoted', ...promoted, retired };
}
