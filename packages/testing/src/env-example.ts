import { readFileSync } from 'node:fs';

/** A zod object schema, as far as these checks need it: its keys. */
type Schema = { shape: Record<string, unknown> };

/** The variable names a `.env.example` documents: its `NAME=value` lines, commented out (`# NAME=`) or not. */
export function envExampleNames(path: string): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line.trim());
    if (m?.[1]) names.add(m[1]);
  }
  return names;
}

/**
 * How a service's `.env.example` differs from the variables its schemas read: `undocumented`,
 * keys it does not list; `unread`, names it lists that no schema reads (renamed or removed keys).
 * Both empty when it is true.
 */
export function envExampleDrift(path: string, ...schemas: Schema[]): { undocumented: string[]; unread: string[] } {
  const documented = envExampleNames(path);
  const read = new Set(schemas.flatMap((schema) => Object.keys(schema.shape)));
  return { undocumented: [...read].filter((key) => !documented.has(key)), unread: [...documented].filter((name) => !read.has(name)) };
}
