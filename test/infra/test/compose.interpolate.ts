/**
 * Compose's variable interpolation (compose-spec "Interpolation"): `$VAR`, `${VAR}`,
 * `${VAR:-default}` / `${VAR-default}`, `${VAR:?error}` / `${VAR?error}`, `${VAR:+alt}` / `${VAR+alt}`
 * and `$$` for a literal `$`. Enough to evaluate our compose file the way `docker compose` does.
 */
export class MissingVariable extends Error {
  override name = 'MissingVariable';
}

const PATTERN = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(PATTERN, (match, braced?: string, op?: string, arg?: string, bare?: string) => {
    if (match === '$$') return '$';
    const name = braced ?? bare ?? '';
    const value = env[name];
    const set = value !== undefined;
    const nonEmpty = set && value !== '';
    switch (op) {
      case ':-':
        return nonEmpty ? value : (arg ?? '');
      case '-':
        return set ? value : (arg ?? '');
      case ':?':
        if (!nonEmpty) throw new MissingVariable(`${name}: ${arg ?? 'required'}`);
        return value;
      case '?':
        if (!set) throw new MissingVariable(`${name}: ${arg ?? 'required'}`);
        return value;
      case ':+':
        return nonEmpty ? (arg ?? '') : '';
      case '+':
        return set ? (arg ?? '') : '';
      default:
        return value ?? '';
    }
  });
}

/** Applies `interpolate` to every string of a parsed document (keys stay as written). */
export function interpolateAll<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === 'string') return interpolate(value, env) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => interpolateAll(v, env)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, env)])) as T;
  }
  return value;
}
