import { readFileSync } from 'node:fs';

/** The variable names a `.env.example` documents: its `NAME=value` lines, commented out (`# NAME=`) or not. */
export function envExampleNames(path: string): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line.trim());
    if (m?.[1]) names.add(m[1]);
  }
  return names;
}

/** The keys of a service's config schema that its `.env.example` does not document (none, when it is true). */
export function undocumentedKeys(schema: { shape: Record<string, unknown> }, envExamplePath: string): string[] {
  const documented = envExampleNames(envExamplePath);
  return Object.keys(schema.shape).filter((key) => !documented.has(key));
}
