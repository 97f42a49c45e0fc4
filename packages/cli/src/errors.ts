import { ZkApiError } from '@hush/zk/client';

/**
 * hush's one error model: every failure a person can act on is a `CliError` with an exit code from
 * EXIT and a message that says what to do; `explain` turns anything else (a refusal of the
 * secrets API, a network failure) into one, in this one place. Messages never hold a secret, a
 * key, a passphrase, a token or a link's fragment.
 */

/** The exit codes (docs/cli.md lists them). */
export const EXIT = {
  ok: 0,
  /** Something unexpected: a fault of hush or of a server (the message says which). */
  failure: 1,
  /** A command, option or input hush does not take (or the server refused as invalid). */
  usage: 2,
  /** A server could not be reached, or is unavailable for now. */
  unreachable: 3,
  /** The secret or request is gone: read, burned, expired, answered, or never was. */
  gone: 4,
  /** The link's key is missing, malformed or not the secret's (nothing was read or changed). */
  wrongKey: 5,
  /** A passphrase is needed, or the one given is wrong (attempts are counted). */
  passphrase: 6,
  /** Not signed in, or the login has expired or was ended: `hush login`. */
  login: 7,
  /** Signed in, but not as someone allowed to do this (a recipient's or requester's secret). */
  forbidden: 8,
  /** Refused by a limit: too long, too large, too many. */
  limit: 9,
  /** Interrupted (Ctrl-C at a prompt), as a shell reports SIGINT. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  readonly exitCode: ExitCode;

  constructor(exitCode: ExitCode, message: string) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string) => new CliError(EXIT.usage, message);

/** A refusal of identity's OAuth endpoints: `{error, error_description}` (RFC 6749 §5.2, RFC 8628 §3.5). */
export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;

  constructor(status: number, error: string, description: string | undefined) {
    super(description ?? error);
    this.name = 'OAuthError';
    this.status = status;
    this.error = error;
  }
}

const LOGIN_CODES = new Set(['credentials_required', 'invalid_credentials', 'invalid_token']);
const FORBIDDEN_CODES = new Set(['secret_for_recipient', 'secret_for_another_account', 'insufficient_scope', 'user_token_required', 'account_required']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

/** The secrets API's refusal as a person reads it, with what to do next where there is something. */
function fromApi(err: ZkApiError): CliError {
  const { status, code, message } = err;
  if (code === 'unknown_secret') return new CliError(EXIT.gone, 'This secret is not available: it was already read, burned or has expired (or the link is wrong).');
  if (code === 'unknown_file') return new CliError(EXIT.gone, `The secret's file is not available any more: ${message}`);
  if (code === 'unknown_request') return new CliError(EXIT.gone, 'This request is not open: it was answered, cancelled or has expired.');
  if (code === 'wrong_key')
    return new CliError(EXIT.wrongKey, 'The key in this link is not the key of this secret (was the link cut short or altered?): nothing was read or changed.');
  if (code === 'not_zero_knowledge') return new CliError(EXIT.usage, 'This secret was encrypted by the server, not by its sender: open its link in a browser.');
  if (code === 'passphrase_required') return new CliError(EXIT.passphrase, 'This secret needs its passphrase.');
  if (code === 'passphrase_incorrect') return new CliError(EXIT.passphrase, `Wrong passphrase. ${message}.`);
  if (code === 'invalid_token') return new CliError(EXIT.login, 'Your login has expired or was ended: sign in again with `hush login`.');
  if (LOGIN_CODES.has(code)) return new CliError(EXIT.login, 'Sign in first with `hush login` (or set HUSH_API_TOKEN).');
  if (FORBIDDEN_CODES.has(code)) return new CliError(EXIT.forbidden, message);
  if (status === 413 || status === 429) return new CliError(EXIT.limit, message);
  if (status === 503) return new CliError(EXIT.unreachable, `The secrets service is unavailable for now: ${message}`);
  if (status >= 400 && status < 500) return new CliError(EXIT.usage, message);
  return new CliError(EXIT.failure, `The secrets service failed (HTTP ${status}).`);
}

function fromOAuth(err: OAuthError): CliError {
  if (err.error === 'invalid_grant') return new CliError(EXIT.login, 'Your login has expired or was ended: sign in again with `hush login`.');
  if (err.error === 'access_denied') return new CliError(EXIT.login, 'The sign-in was not allowed in the browser.');
  if (err.error === 'expired_token') return new CliError(EXIT.login, 'The code expired before it was approved: run `hush login` again.');
  if (err.error === 'invalid_client' || err.error === 'unauthorized_client') {
    return new CliError(
      EXIT.failure,
      `Identity does not let this command line sign in (${err.message}): its client is seeded by identity's migrations (HUSH_CLIENT_ID names another).`,
    );
  }
  if (err.error === 'invalid_scope') return new CliError(EXIT.failure, 'Identity does not know the secrets API’s scopes: has `hush-identity bootstrap` registered the API?');
  if (err.status === 429 || err.error === 'temporarily_unavailable') return new CliError(EXIT.limit, 'Identity asks to wait (too many sign-ins from here): try again in a minute.');
  return new CliError(err.status >= 500 ? EXIT.unreachable : EXIT.failure, `Identity refused: ${err.error} (${err.message}).`);
}

/** The code of a network failure under fetch's `TypeError: fetch failed`, if it is one. */
function networkCode(err: unknown): string | undefined {
  if (!(err instanceof TypeError)) return undefined;
  const cause = (err as { cause?: { code?: unknown; errors?: { code?: unknown }[] } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : typeof cause?.errors?.[0]?.code === 'string' ? cause.errors[0].code : undefined;
  return code !== undefined && NETWORK_CODES.has(code) ? code : err.message === 'fetch failed' ? 'unreachable' : undefined;
}

/**
 * Any failure as a CliError. `server` is the origin the command was talking to, named when it
 * cannot be reached.
 */
export function explain(err: unknown, server: string): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof ZkApiError) return fromApi(err);
  if (err instanceof OAuthError) return fromOAuth(err);
  const network = networkCode(err);
  if (network !== undefined)
    return new CliError(EXIT.unreachable, `Cannot reach ${server} (${network}). Is it running? Set its address with --url/HUSH_URL or --auth-url/HUSH_AUTH_URL.`);
  if (err instanceof Error && err.name === 'OperationError') return new CliError(EXIT.failure, 'The secret could not be decrypted: its content does not match its key.');
  // A parse error's message quotes what it parsed, which may be a decrypted secret.
  if (err instanceof SyntaxError) return new CliError(EXIT.failure, 'Unexpected failure: an answer or a secret was not valid JSON.');
  return new CliError(EXIT.failure, `Unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
}

/** Runs `work`, which talks to `server`, turning its failures into CliErrors that name that server. */
export async function talkingTo<T>(server: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw explain(err, server);
  }
}
