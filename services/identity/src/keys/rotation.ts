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
 * Zero-downtime rotation in three moves, each safe to repeat (run it from cron):
 * 1. add a `next` key: published in the JWKS, not yet signing;
 * 2. once every process has reloaded (publishSeconds), promote it: it signs, the old key is `retiring`;
 * 3. delete `retiring` keys once every token they signed has expired.
 */
export class KeyRotation {
  constructor(
    private readonly keys: SigningKeys,
    private readonly repository: KeysRepository,
    private readonly apis: ApisRepository,
    private readonly publishSeconds: number,
  ) {}

  async retireAfterSeconds(): Promise<number> {
    return Math.max(await this.apis.maxAccessTokenTtl(), ID_TOKEN_TTL) + this.publishSeconds + 60;
  }

  async addNext(): Promise<string> {
    const existing = (await this.repository.list()).find((k) => k.status === 'next');
    return existing?.kid ?? this.keys.add('next');
  }

  async promote(): Promise<{ kid: string; retiring: string | undefined; retireAfterSeconds: number } | undefined> {
    const retireAfterSeconds = await this.retireAfterSeconds();
    const result = await this.repository.promoteNext(retireAfterSeconds);
    return result && { kid: result.promoted, retiring: result.retiring, retireAfterSeconds };
  }

  retire(force = false): Promise<string[]> {
    return this.repository.deleteRetired(force);
  }

  async step(now = new Date()): Promise<RotationStep> {
    const retired = await this.retire();
    const next = (await this.repository.list()).find((k) => k.status === 'next');
    if (!next) return { step: 'added-next', kid: await this.keys.add('next'), retired };
    const promoteAfter = new Date(next.createdAt.getTime() + this.publishSeconds * 2000);
    if (now < promoteAfter) return { step: 'waiting', kid: next.kid, promoteAfter, retired };
    const promoted = await this.promote();
    if (!promoted) return { step: 'added-next', kid: await this.keys.add('next'), retired };
    return { step: 'promoted', ...promoted, retired };
  }
}
