/** A client's web origins with `+` replaced by the origins of its http(s) redirect URIs. */
export function resolveWebOrigins(webOrigins: readonly string[], redirectUris: readonly string[]): string[] {
  const out = new Set<string>();
  for (const entry of webOrigins) {
    if (entry !== '+') {
      out.add(entry);
      continue;
    }
    for (const uri of redirectUris) {
      const url = URL.parse(uri);
      if (url && (url.protocol === 'https:' || url.protocol === 'http:')) out.add(url.origin);
    }
  }
  return [...out];
}
