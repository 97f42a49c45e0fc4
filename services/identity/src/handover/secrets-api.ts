import { DependencyUnavailableError, InvalidInputError } from '@hush/common';
import { sealLinkKey } from '@hush/queue';
import { withSpan } from '@hush/telemetry';
import { zkEncode, zkKeys, zkRandom, zkSealHeader } from '@hush/zk';

/** The fields of the secrets service's metadata (its docs/api.md) a handover receipt shows. */
export interface SecretMetadata {
  metadata_key: string;
  recipient?: string | undefined;
  state?: string | undefined;
  delivery_status?: string | undefined;
  received?: number | undefined;
  burned?: number | undefined;
  secret_ttl?: number | undefined;
}

export interface SecretsApiOptions {
  /** The secrets service's origin; its API is under /api/v1. */
  secretsUrl: string;
  /** Identity's own token endpoint. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * LINK_KEY_SEALING_KEY: share zero-knowledge (docs/zero-knowledge.md). The credential is
   * encrypted here with a fresh key, the secrets service gets the envelope and the key sealed for
   * the mailer, which alone completes the recipient's link. Undefined: the secrets service encrypts.
   */
  linkKeySealingKey?: Buffer | undefined;
}

const TIMEOUT_MS = 5000;

/**
 * The secrets service's public API as one of its clients sees it (share, metadata, burn),
 * authenticated by a client-credentials access token that identity issues to itself through its
 * own token endpoint (kept until shortly before it expires). Any failure to reach it, or an
 * answer it should not give, is a 503 of dependency `secrets`: the caller retries later.
 */
export class SecretsApi {
  private token: { value: string; until: number } | undefined;

  constructor(private readonly options: SecretsApiOptions) {}

  /** Shares `value` with `recipient` (the secrets service mails the one-time link); the new secret's metadata. */
  async share(value: string, recipient: string, ttl: number): Promise<SecretMetadata> {
    const linkKey = this.options.linkKeySealingKey;
    if (linkKey === undefined) return this.call('/share', { secret: value, recipient, ttl: String(ttl) });
    // Zero-knowledge: the key exists here only, and leaves sealed for the mailer.
    const key = zkRandom(32);
    const keys = await zkKeys(key);
    const envelope = await zkSealHeader(keys, { text: value }, zkRandom(12));
    return this.call('/zk/share', {
      envelope: zkEncode(envelope),
      key_verifier: keys.keyVerifier,
      recipient,
      ttl: String(ttl),
      link_key_sealed: sealLinkKey(linkKey, zkEncode(key)),
    });
  }

  /** Undefined once the secrets service no longer keeps the receipt (long after the secret's end). */
  metadata(metadataKey: string): Promise<SecretMetadata | undefined> {
    return this.call(`/private/${encodeURIComponent(metadataKey)}`, {}).catch((err: unknown) => {
      if (err instanceof GoneError) return undefined;
      throw err;
    });
  }

  burn(metadataKey: string): Promise<SecretMetadata> {
    return this.call(`/private/${encodeURIComponent(metadataKey)}/burn`, {});
  }

  /** Traced, one span per call (`handover share`, `handover private`): the path's keys stay out of its name. */
  private call(path: string, form: Record<string, string>): Promise<SecretMetadata> {
    return withSpan(`handover ${path.split('/')[1] ?? ''}`, {}, () => this.callSecrets(path, form));
  }

  private async callSecrets(path: string, form: Record<string, string>): Promise<SecretMetadata> {
    const res = await this.post(`${this.options.secretsUrl}/api/v1${path}`, form, { authorization: `Bearer ${await this.accessToken()}` });
    if (res.status === 401) this.token = undefined;
    // The recipient refused (malformed address): the administrator's input, not an outage.
    if (res.status === 400 && (path === '/share' || path === '/zk/share')) {
      const reason = res.body['message'] ?? res.body['error'];
      throw new InvalidInputError(`the secrets service refused the handover: ${typeof reason === 'string' ? reason : 'bad request'}`);
    }
    if (res.status === 404 && path !== '/share' && path !== '/zk/share') throw new GoneError();
    if (res.status !== 200) throw unavailable(`secrets answered ${res.status} to ${path.split('/')[1]}`);
    return res.body as unknown as SecretMetadata;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const res = await this.post(this.options.tokenUrl, {
      grant_type: 'client_credentials',
      scope: 'secrets:read secrets:write',
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    });
    const token = res.body['access_token'];
    const expiresIn = Number(res.body['expires_in'] ?? 60);
    if (res.status !== 200 || typeof token !== 'string') throw unavailable(`token endpoint answered ${res.status} to the handover client`);
    // Renewed 30 s before it expires (or half way for short tokens), so a call never carries a dying one.
    this.token = { value: token, until: Date.now() + Math.max(expiresIn / 2, expiresIn - 30) * 1000 };
    return token;
  }

  private async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
      const text = await res.text();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // Not JSON: only the status matters then.
      }
      return { status: res.status, body };
    } catch (err) {
      throw new DependencyUnavailableError('secrets', err);
    }
  }
}

class GoneError extends Error {}

function unavailable(reason: string): DependencyUnavailableError {
  return new DependencyUnavailableError('secrets', new Error(reason));
}
