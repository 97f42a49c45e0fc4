import type { KeyRing } from '@hush/common';
import { ClientSecretUnreadableError } from '../errors.js';
import { KEY_LABELS } from '../key-labels.js';

/**
 * The copy of a client secret that Keycloak's tools read back (`GET /clients/{id}/client-secret`):
 * AES-256-GCM under a key derived from MASTER_KEY (the newest of its ring) and bound to the client's internal id, so a
 * database dump alone opens none, and a sealed secret pasted into another client's row fails.
 * Authentication never uses it (the SHA-256 hash does, client-secret.ts). With read-back off
 * (CLIENT_SECRET_READBACK=false) no copy is kept: secrets are shown once, at creation or rotation.
 */
export class ClientSecretSeal {
  private readonly keys: KeyRing;

  constructor(
    masterKeys: KeyRing,
    private readonly readBack: boolean,
  ) {
    this.keys = masterKeys.derive(KEY_LABELS.clientSecrets);
  }

  /** The copy to store, or null when read-back is off. */
  seal(id: string, secret: string): Buffer | null {
    return this.readBack ? this.keys.seal(secret, aad(id)) : null;
  }

  open(id: string, sealed: Buffer | null): string {
    if (!this.readBack || sealed === null) throw new ClientSecretUnreadableError();
    try {
      return this.keys.open(sealed, aad(id)).toString('utf8');
    } catch {
      throw new ClientSecretUnreadableError();
    }
  }

  /** The stored copy under the newest key (for the rewrap); throws when no key of the ring opens it. */
  rewrap(id: string, sealed: Buffer): Buffer {
    return this.keys.rewrap(sealed, aad(id));
  }
}

const aad = (id: string) => `client-secret:${id}`;
