import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonProblem, MalformedTextError, percentEncodedProblem, valueProblem } from '../input/text.js';
import { sendErrorPage } from './error-page.js';

/**
 * The input layer of both services (its rules: ../input/text.ts), in three pieces that every way
 * in goes through:
 * - `textInput()`, the first middleware of each service's Express app, refuses a request whose
 *   path or query is not such text, before any route reads it; the fast paths (identity's
 *   protocol routes, the secrets API) hand such a request to Express rather than serve it
 *   (`urlTextProblem`). A page gets the error page, an API the service's error body through its
 *   error middleware (`TextInputOptions`);
 * - `verifyBodyText(kind)` is body-parser's `verify` option: a body is refused before it is parsed;
 * - `parsedTextProblem(value)` checks what a parser without a raw view produced (multipart fields).
 */

/** The refusal of a request target (`req.url` as node:http received it), or undefined when it is text we take. */
export function urlTextProblem(url: string): MalformedTextError | undefined {
  if (percentEncodedProblem(url) === undefined) return undefined;
  const q = url.indexOf('?');
  const inPath = percentEncodedProblem(q === -1 ? url : url.slice(0, q));
  if (inPath) return new MalformedTextError('path', inPath);
  return new MalformedTextError('query', percentEncodedProblem(url.slice(q + 1)) ?? 'invalid UTF-8');
}

type ExpressLike = IncomingMessage & { accepts?: (types: string[]) => string | false };

export interface TextInputOptions {
  /**
   * Path prefixes of the service's JSON APIs: there the refusal is JSON unless the request
   * prefers HTML (a browser sent to an OAuth endpoint); anywhere else it is the error page unless
   * the request prefers JSON.
   */
  apis: readonly string[];
}

/** Middleware refusing (400) a request whose path or query breaks the text rules. */
export function textInput(options: TextInputOptions) {
  const isApi = (url: string) => options.apis.some((prefix) => url.startsWith(prefix) && (url.length === prefix.length || '/?'.includes(url[prefix.length] as string)));
  return (req: ExpressLike, res: ServerResponse, next: (err?: unknown) => void): void => {
    const url = req.url ?? '';
    const refused = urlTextProblem(url);
    if (!refused) return next();
    const preference = typeof req.accepts === 'function' ? req.accepts(isApi(url) ? ['json', 'html'] : ['html', 'json']) : 'json';
    if (preference === 'html') return sendErrorPage(req, res, refused);
    next(refused);
  };
}

/** body-parser's `verify`: throws MalformedTextError for a body that breaks the text rules (body-parser passes it on as it is). */
export function verifyBodyText(kind: 'json' | 'form') {
  return (_req: IncomingMessage, _res: ServerResponse, body: Buffer, encoding: string): void => {
    const problem = kind === 'json' ? jsonProblem(body, encoding) : percentEncodedProblem(body);
    if (problem) throw new MalformedTextError('body', problem);
  };
}

/** The refusal of a parsed body (multipart fields), or undefined. */
export function parsedTextProblem(value: unknown): MalformedTextError | undefined {
  const problem = valueProblem(value);
  return problem ? new MalformedTextError('body', problem) : undefined;
}
