/** Only a path of this service (never `//host` or a scheme, never a sign-in step) may be a return address. */
export function safeReturn(value: unknown): string {
  if (typeof value !== 'string' || value.length > 300 || !/^\/(?![/\\])[\x21-\x7e]*$/.test(value) || value.startsWith('/auth/')) return '/';
  return value;
}
