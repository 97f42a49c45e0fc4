/**
 * The one rule for a client's redirect URIs, applied when the client is created (CLI) and so
 * at the authorization endpoint, which only sees clients created that way (provider.ts lets
 * oidc-provider's stricter implicit-flow checks defer to it):
 * - an absolute http(s) URL without a fragment (RFC 6749 §3.1.2);
 * - a client using the implicit flow needs https, except on the loopback host, which Keycloak
 *   allows for development (its "SSL required: external requests"): http://localhost,
 *   http://127.0.0.1 and http://[::1], any port.
 * Returns what is wrong, or undefined.
 */
export function redirectUriProblem(uri: string, opts: { implicit: boolean }): string | undefined {
  const url = URL.parse(uri);
  if (!url || uri.includes('#')) return `redirect URI ${uri} must be an absolute URL without a fragment`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `redirect URI ${uri} must use http or https`;
  if (opts.implicit && url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return `redirect URI ${uri} of an implicit-flow client must use https (http only on localhost, 127.0.0.1 or [::1], for development)`;
  }
  return undefined;
}

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}
