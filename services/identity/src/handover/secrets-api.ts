import { DependencyUnavailableError, InvalidInputError } from '@hush/common';
import {
  ALL_SECRETS_SCOPES,
  secretsApiClient,
  SecretsApiUnavailable,
  type SecretsApiAnswer,
  type SecretsApiClient,
  type SecretsApiComponents,
  type SecretsApiOperation,
} from '@hush/contracts';
import { sealLinkKey, type HandoverLabel } from '@hush/queue';
import { withSpan } from '@hush/telemetry';
import { zkEncode, zkKeys, zkRandom, zkSealHeader } from '@hush/zk';

type Schemas = SecretsApiComponents['schemas'];

type ShareAnswer = SecretsApiAnswer<SecretsApiOperation<'/share', 'post'>> | SecretsApiAnswer<SecretsApiOperation<'/zk/share', 'post'>>;

/** A new secret, as a share answers it (the secrets API's document). */
export type SharedSecret = Pick<Schemas['Secret'], 'metadata_key' | 'recipient' | 'state'>;

/** What a handover receipt shows of a secret's metadata: its state, the e-mail's, when it was read. */
export type SecretMetadata = Partial<Pick<Schemas['Metadata'], 'state' | 'delivery_status' | 'received'>>;

export interface SecretsApiOptions {
  /** The secrets service's origin (the API's mount is the contract's). */
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
 * The secrets service's public API as one of its clients sees it (share, metadata, burn), through
 * the client typed by its OpenAPI document (@hush/contracts), authenticated by a
 * client-credentials access token that identity issues to itself through its own token endpoint
 * (kept until shortly before it expires). Any failure to reach it, or an answer it should not
 * give, is a 503 of dependency `secrets`: the caller retries later.
 */
export class SecretsApi {
  private token: { value: string; until: number } | undefined;
  private readonly api: SecretsApiClient;

  constructor(private readonly options: SecretsApiOptions) {
    this.api = secretsApiClient({ baseUrl: options.secretsUrl, authorization: async () => `Bearer ${await this.accessToken()}`, timeoutMs: TIMEOUT_MS });
  }

  /**
   * Shares `value` with `recipient` (the secrets service mails the one-time link, naming what it
   * carries by `label`, in `locale`); the new secret's metadata.
   */
  async share(value: string, recipient: string, ttl: number, label?: HandoverLabel, locale?: string): Promise<SharedSecret> {
    const linkKey = this.options.linkKeySealingKey;
    const labelled = {
      ...(label === undefined ? {} : { handover_kind: label.kind, handover_name: label.name, handover_id: label.id, handover_by: label.by }),
      ...(locale === undefined ? {} : { locale }),
    };
    if (linkKey === undefined) return this.shared(await this.calling('share', () => this.api.post('/share', { body: { secret: value, recipient, ttl, ...labelled } })));
    // Zero-knowledge: the key exists here only, and leaves sealed for the mailer.
    const key = zkRandom(32);
    const keys = await zkKeys(key);
    const envelope = await zkSealHeader(keys, { text: value }, zkRandom(12));
    const body = { envelope: zkEncode(envelope), key_verifier: keys.keyVerifier, recipient, ttl, link_key_sealed: sealLinkKey(linkKey, zkEncode(key)), ...labelled };
    return this.shared(await this.calling('share', () => this.api.post('/zk/share', { body })));
  }

  /** Undefined once the secrets service no longer keeps the receipt (long after the secret's end). */
  async metadata(metadataKey: string): Promise<SecretMetadata | undefined> {
    const res = await this.calling('private', () => this.api.post('/private/{metadata_key}', { path: { metadata_key: metadataKey } }));
    if (res.status === 200) return res.body;
    if (res.status === 404) return undefined;
    throw unavailable(`secrets answered ${res.status} to private`);
  }

  /** Destroys the secret unless it was read already; done once it is gone. */
  async burn(metadataKey: string): Promise<void> {
    const res = await this.calling('burn', () => this.api.post('/private/{metadata_key}/burn', { path: { metadata_key: metadataKey } }));
    if (res.status !== 200 && res.status !== 404) throw unavailable(`secrets answered ${res.status} to burn`);
  }

  /** A share's answer: the recipient refused (a malformed address) is the administrator's input, not an outage. */
  private shared(res: ShareAnswer): SharedSecret {
    if (res.status === 200) return res.body;
    if (res.status === 400) throw new InvalidInputError(`the secrets service refused the handover: ${res.body.message}`);
    throw unavailable(`secrets answered ${res.status} to share`);
  }

  /**
   * Runs a call, traced as one span (`handover share`, `handover private`, `handover burn`; no key
   * in its name): an expired or revoked token is dropped (401), and no documented answer is an outage.
   */
  private calling<T extends { status: number }>(name: string, call: () => Promise<T>): Promise<T> {
    return withSpan(`handover ${name}`, {}, () => this.callingNow(call));
  }

  private async callingNow<T extends { status: number }>(call: () => Promise<T>): Promise<T> {
    try {
      const res = await call();
      if (res.status === 401) this.token = undefined;
      return res;
    } catch (err) {
      if (err instanceof SecretsApiUnavailable || err instanceof DependencyUnavailableError) throw new DependencyUnavailableError('secrets', err);
      throw err;
    }
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const res = await this.postForm(this.options.tokenUrl, {
      grant_type: 'client_credentials',
      scope: ALL_SECRETS_SCOPES.join(' '),
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

  /** A form POST to identity's own token endpoint (OAuth, not the secrets API). */
  private async postForm(url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
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

function unavailable(reason: string): DependencyUnavailableError {
  return new DependencyUnavailableError('secrets', new Error(reason));
}
