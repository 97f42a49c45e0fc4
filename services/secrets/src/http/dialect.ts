import type { Response } from 'express';
import type { DomainError } from '@hush/common';
import type { BurnedView, MetadataView } from '../secrets/metadata.js';
import { secretsInputs, type ApiDialectInputs as ApiDialectName, type SecretsInputs, type TtlBounds } from './secrets-params.js';
import { presentBurn, presentCreated, presentMetadata, presentRecentItem } from '../secrets/presenter.js';
import { presentBurnOts, presentCreatedOts, presentMetadataOts, presentRecentItemOts } from '../secrets/presenter.onetimesecret.js';
import type { CreatedSecret } from '../secrets/share.js';

/**
 * One API dialect (API_DIALECT, docs/api-dialects.md): how /api/v1 reads its input and shapes its
 * answers and errors. The use-cases are the same for both; a dialect is chosen once, when the app
 * is built, and only decides:
 * - input normalisation (`inputs`): strict 400s, or Onetime Secret's clamping and dropping;
 * - the presenters of each answer;
 * - two policies Onetime Secret's clients rely on (a generated secret shows `viewed`; burn checks
 *   the passphrase);
 * - the status and body of errors.
 */
export interface ApiDialect {
  readonly name: ApiDialectName;
  readonly inputs: SecretsInputs;
  created(c: CreatedSecret): object;
  metadata(view: MetadataView): object;
  burn(view: BurnedView): object;
  recentItem(view: MetadataView): object;
  /** Onetime Secret classic records a generated secret as viewed (the creator has seen it). */
  readonly generateMarksViewed: boolean;
  /** Onetime Secret (current) asks for the secret's passphrase to burn it. */
  readonly burnChecksPassphrase: boolean;
  /** Status of a known error (headers: the error's own, plus what the dialect adds). */
  errorStatus(err: DomainError): number;
  errorBody(err: DomainError, res: Response): object;
  readonly fault: object;
}

/** Routes record the key of their path here, for Onetime Secret's `{"message":"Unknown secret","secret_key":...}`. */
export const setSubjectKey = (res: Response, key: string): void => {
  res.locals['subjectKey'] = key;
};

const SPEC: Omit<ApiDialect, 'inputs'> = {
  name: 'spec',
  created: presentCreated,
  metadata: (view) => presentMetadata(view),
  burn: presentBurn,
  recentItem: presentRecentItem,
  generateMarksViewed: false,
  burnChecksPassphrase: false,
  errorStatus: (err) => err.status,
  errorBody: (err) => ({ message: err.message, code: err.code }),
  fault: { message: 'An unexpected error occurred', code: 'internal_error' },
};

/** Codes whose Onetime Secret answer is "Unknown secret": its clients cannot tell them apart, by design. */
const UNKNOWN_SECRET = new Set(['unknown_secret', 'passphrase_required', 'passphrase_incorrect', 'secret_for_another_account']);
const NOT_AUTHORIZED = new Set(['credentials_required', 'invalid_credentials', 'invalid_token', 'insufficient_scope', 'user_token_required']);

const ONETIMESECRET: Omit<ApiDialect, 'inputs'> = {
  name: 'onetimesecret',
  created: presentCreatedOts,
  metadata: (view) => presentMetadataOts(view),
  burn: (view) => presentBurnOts(view),
  recentItem: (view) => presentRecentItemOts(view),
  generateMarksViewed: true,
  burnChecksPassphrase: true,
  // Onetime Secret v1 answers every refusal with 404; the intended status goes in a header, as
  // its current version does (X-OTS-Intended-Status). Faults and outages keep their 5xx.
  errorStatus: (err) => (err.status >= 500 ? err.status : 404),
  errorBody(err, res) {
    res.set('X-OTS-Intended-Status', String(err.status));
    if (UNKNOWN_SECRET.has(err.code)) {
      const key: unknown = res.locals['subjectKey'];
      return typeof key === 'string' ? { message: 'Unknown secret', secret_key: key } : { message: 'Unknown secret' };
    }
    if (NOT_AUTHORIZED.has(err.code)) return { message: 'Not authorized' };
    return { message: err.message };
  },
  fault: { message: 'An unexpected error occurred' },
};

export function apiDialect(name: ApiDialectName, ttl: TtlBounds): ApiDialect {
  return { ...(name === 'onetimesecret' ? ONETIMESECRET : SPEC), inputs: secretsInputs(ttl, name) };
}
