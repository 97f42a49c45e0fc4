import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { interpolateAll } from './compose.interpolate.js';
import { repoRoot } from './services.contract.js';

/**
 * Compose files read as `docker compose -f a.yml -f b.yml` reads them, without Docker: YAML anchors
 * and merge keys (`<<:`) resolved, later files merged into earlier ones by the rules of the Compose
 * specification's "Merge and override" (mappings merged key by key; `command`, `entrypoint` and
 * `healthcheck.test` replaced; other sequences joined without duplicates), then interpolated.
 */

export type Yaml = Record<string, unknown>;

export interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  healthcheck?: { test?: string[] | string };
  depends_on?: Record<string, { condition?: string }>;
  volumes?: string[];
  secrets?: (string | { source: string; target?: string })[];
  restart?: string;
  read_only?: boolean;
  logging?: { driver?: string; options?: Record<string, string> };
  deploy?: { resources?: { limits?: { cpus?: string | number; memory?: string } } };
  networks?: Record<string, { ipv4_address?: string } | null>;
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file?: string; environment?: string }>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string; gateway?: string }[] } }>;
  volumes?: Record<string, unknown>;
}

/** The compose files of the repository: the base and its opt-in overrides. */
export const BASE = 'docker-compose.yml';
export const MAIL_CATCHER = 'docker-compose.mailpit.yml';
export const TLS_PROXY = 'docker-compose.tls.yml';
export const ROTATE_KEYS = 'docker-compose.rotate-keys.yml';
export const OVERRIDES = [MAIL_CATCHER, TLS_PROXY, ROTATE_KEYS];

export const composeText = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

/** One file as YAML, anchors and merge keys resolved, not interpolated. */
export const readCompose = (file: string) => parse(composeText(file), { merge: true, maxAliasCount: -1 }) as ComposeFile;

const REPLACED = new Set(['command', 'entrypoint', 'test']);
const isMapping = (v: unknown): v is Yaml => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(base: unknown, override: unknown, key = ''): unknown {
  if (isMapping(base) && isMapping(override)) {
    const out: Yaml = { ...base };
    for (const [k, v] of Object.entries(override)) out[k] = k in base ? merge(base[k], v, k) : v;
    return out;
  }
  if (Array.isArray(base) && Array.isArray(override) && !REPLACED.has(key)) {
    const seen = new Set(base.map((v) => JSON.stringify(v)));
    return [...base, ...override.filter((v) => !seen.has(JSON.stringify(v)))];
  }
  return override;
}

/** The model compose runs for these files (base first), before interpolation. */
export function mergedRaw(files: string[]): ComposeFile {
  return files.map(readCompose).reduce((a, b) => merge(a, b) as ComposeFile);
}

/** The model compose runs for these files with `.env` holding `env`. */
export function loadCompose(files: string[], env: Record<string, string | undefined>): ComposeFile {
  return interpolateAll(mergedRaw(files), env);
}

/** Every combination compose may be run with: the base alone, and with each set of overrides. */
export const VARIANTS: string[][] = [[BASE], [BASE, MAIL_CATCHER], [BASE, TLS_PROXY], [BASE, MAIL_CATCHER, TLS_PROXY], [BASE, ROTATE_KEYS]];

/** Names of the secrets a service mounts. */
export const secretsOf = (svc: ComposeService) => (svc.secrets ?? []).map((s) => (typeof s === 'string' ? s : s.source));
