/**
 * Removes from a representation every field that is or may hold a secret, at any depth: client
 * secrets, passwords, credentials (whose `value` is a password), tokens and keys. Keycloak has
 * leaked client secrets into admin events more than once; here the rule is by name, so a field
 * added later is removed as long as its name says what it is. A bare string (an id) stays.
 */
const SECRET_FIELD = /secret|password|credential|^value$|token|private|^key$|^d$/i;

export function redactRepresentation(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactRepresentation);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => !SECRET_FIELD.test(key))
      .map(([key, v]) => [key, redactRepresentation(v)]),
  );
}
