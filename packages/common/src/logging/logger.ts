import { pino, type Logger, type LoggerOptions } from 'pino';
import { traceLogMixin } from '@hush/telemetry';

/**
 * Paths pino blanks in every log line. Anything that could be a credential, a secret value or an
 * e-mail address is listed here, at any depth we log (request, body, params, error objects).
 */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passphrase',
  '*.secret',
  '*.value',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
  '*.token',
  // OAuth authorization codes, where a request's parameters are logged; not `*.code`, which
  // would also blank an error's code (ECONNREFUSED) and hide what failed from the operator.
  'query.code',
  'body.code',
  'params.code',
  'req.query.code',
  'req.body.code',
  '*.code_verifier',
  '*.api_token',
  '*.recipient',
  '*.email',
  '*.masterKey',
  '*.privateJwk',
];

export type { Logger };

/** In a traced process (@hush/telemetry) every line written inside a span carries its `trace_id` and `span_id`. */
export function createLogger(options: { name: string; level: string; destination?: NodeJS.WritableStream }): Logger {
  const mixin = traceLogMixin();
  const config: LoggerOptions = {
    ...(mixin ? { mixin } : {}),
    name: options.name,
    level: options.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(config, options.destination as pino.DestinationStream) : pino(config);
}
