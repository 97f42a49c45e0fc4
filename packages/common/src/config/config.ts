import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Raised at start-up when the environment is unusable; the message names every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads a service's configuration from the environment once.
 * For every key of the schema, `<KEY>_FILE` may name a file whose trimmed content is used instead
 * (Docker and Kubernetes secrets); setting both is an error, as it is ambiguous.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const raw: Record<string, string | undefined> = {};
  const problems: string[] = [];
  for (const key of Object.keys(schema.shape)) {
    const fileVar = `${key}_FILE`;
    const direct = env[key];
    const file = env[fileVar];
    if (direct !== undefined && direct !== '' && file) {
      problems.push(`${key}: set either ${key} or ${fileVar}, not both`);
      continue;
    }
    if (file) {
      try {
        raw[key] = readFileSync(file, 'utf8').trim();
        // An empty file is a mistake (a secret not written yet), never "use the default".
        if (raw[key] === '') problems.push(`${fileVar}: ${file} is empty`);
      } catch (err) {
        problems.push(`${fileVar}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      }
    } else if (direct !== undefined && direct !== '') {
      raw[key] = direct;
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) {
    throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

/** Common schema pieces. */
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
export const url = (fallback?: string) => (fallback === undefined ? z.url() : z.url().default(fallback));
export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => ['true', '1', 'yes'].includes(v));
export const logLevel = () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** A 256-bit key given as 64 hex characters or base64/base64url of 32 bytes. */
export const key256 = (hint: string) =>
  z.string().transform((value, ctx) => {
    const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    if (bytes.length !== 32) {
      ctx.addIssue({ code: 'custom', message: `must be 32 random bytes as 64 hex characters or base64 (${hint})` });
      return z.NEVER;
    }
    return bytes;
  });

/** Zero or more 256-bit keys (as `key256`), comma-separated; empty or unset: none. */
export const key256List = (hint: string) =>
  z
    .string()
    .default('')
    .transform((value, ctx) => {
      const keys: Buffer[] = [];
      for (const [i, item] of value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '')
        .entries()) {
        const bytes = /^[0-9a-fA-F]{64}$/.test(item) ? Buffer.from(item, 'hex') : Buffer.from(item, 'base64');
        if (bytes.length !== 32) {
          ctx.addIssue({ code: 'custom', message: `key ${i + 1}: must be 32 random bytes as 64 hex characters or base64 (${hint})` });
          return z.NEVER;
        }
        keys.push(bytes);
      }
      return keys;
    });
