import type { paths } from './schema.ts';
import { DOCUMENTED_STATUSES } from './statuses.ts';

/** Where the secrets API lives under the secrets service's origin. */
export const SECRETS_API_MOUNT = '/api/v1';

type Method = 'get' | 'post';

/** The API's paths that answer `method`. */
export type SecretsApiPath<M extends Method> = { [P in keyof paths]: paths[P][M] extends object ? P : never }[keyof paths];

/** The operation behind `method path`. */
export type SecretsApiOperation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

type JsonOf<C> = C extends { content: { 'application/json': infer T } } ? T : undefined;
type PathParamsOf<O> = O extends { parameters: { path: infer Params } } ? Params : never;
type ResponsesOf<O> = O extends { responses: infer R } ? R : never;

/** What a call sends: the path's parameters, where it has any, and the JSON body. */
export type SecretsApiRequest<O> = ([PathParamsOf<O>] extends [never] ? { path?: undefined } : { path: PathParamsOf<O> }) & {
  body?: O extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : undefined;
};

/** An answer the document describes: one of the operation's statuses, with its body. */
export type SecretsApiAnswer<O> = { [S in keyof ResponsesOf<O>]: { status: S; body: JsonOf<ResponsesOf<O>[S]> } }[keyof ResponsesOf<O>];

/**
 * A call that got no answer the document describes: no connection, no answer in time, a redirect,
 * or a status the operation does not document (a proxy's error page, say). The API is not there
 * as promised; the caller may try again later.
 */
export class SecretsApiUnavailable extends Error {
  override name = 'SecretsApiUnavailable';
}

export interface SecretsApiClientOptions {
  /** The secrets service's origin; the API is under SECRETS_API_MOUNT. */
  baseUrl: string;
  /** The Authorization header of each call (e.g. `Bearer <access token>`). */
  authorization(): Promise<string>;
  /** Longest wait for an answer, in ms. */
  timeoutMs: number;
}

export interface SecretsApiClient {
  get<P extends SecretsApiPath<'get'>>(path: P, request: SecretsApiRequest<SecretsApiOperation<P, 'get'>>): Promise<SecretsApiAnswer<SecretsApiOperation<P, 'get'>>>;
  post<P extends SecretsApiPath<'post'>>(path: P, request: SecretsApiRequest<SecretsApiOperation<P, 'post'>>): Promise<SecretsApiAnswer<SecretsApiOperation<P, 'post'>>>;
}

/**
 * A client of the secrets API typed by its OpenAPI document (schema.ts): paths, their parameters,
 * bodies (sent as JSON) and answers are the document's, and an answer with a status the operation
 * does not document is a SecretsApiUnavailable. Bodies are not checked at run time: the secrets
 * service's tests check its answers against the same document.
 */
export function secretsApiClient(options: SecretsApiClientOptions): SecretsApiClient {
  const call = async (method: Method, path: string, request: { path?: Record<string, string> | undefined; body?: unknown }) => {
    const documented = DOCUMENTED_STATUSES[path]?.[method];
    if (!documented) throw new SecretsApiUnavailable(`${method.toUpperCase()} ${path} is not in the secrets API's document`);
    const params = request.path ?? {};
    const url = `${options.baseUrl}${SECRETS_API_MOUNT}${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))}`;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method: method.toUpperCase(),
        headers: { authorization: await options.authorization(), accept: 'application/json', ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: 'error',
      });
      text = await res.text();
    } catch (err) {
      throw new SecretsApiUnavailable(`${method.toUpperCase()} ${path}: ${(err as Error).message}`, { cause: err });
    }
    if (!documented.includes(res.status)) throw new SecretsApiUnavailable(`${method.toUpperCase()} ${path} answered ${res.status}, which its document does not describe`);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new SecretsApiUnavailable(`${method.toUpperCase()} ${path} answered ${res.status} without JSON`);
    }
    return { status: res.status, body };
  };
  return {
    get: (path, request) => call('get', path, request) as never,
    post: (path, request) => call('post', path, request) as never,
  };
}
