/**
 * HTTP Basic credentials (RFC 7617 §2): `Basic <base64(user-id ":" password)>`.
 * - the scheme is case-insensitive and followed by one or more spaces (RFC 9110 §11.4);
 * - the user-id ends at the first colon (it cannot contain one; the password may);
 * - both are UTF-8 (the only charset RFC 7617 §2.1 allows a server to announce).
 * Padding may be left out; any character outside the base64 alphabet makes the header unusable.
 */
export interface BasicCredentials {
  user: string;
  password: string;
}

const BASIC = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/** The credentials of a Basic `Authorization` header, or undefined when it is absent, another scheme or malformed. */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  const encoded = header === undefined ? undefined : BASIC.exec(header)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * OAuth client authentication with HTTP Basic (RFC 6749 §2.3.1): the client id and secret are
 * form-urlencoded (`+` is a space) before they are joined and base64-encoded. Undefined when the
 * header is not Basic, is malformed, or the client id is empty.
 */
export function parseBasicClientAuth(header: string | undefined): ClientCredentials | undefined {
  const credentials = parseBasicAuth(header);
  if (!credentials || credentials.user === '') return undefined;
  try {
    return { clientId: formDecode(credentials.user), clientSecret: formDecode(credentials.password) };
  } catch {
    return undefined;
  }
}

/** application/x-www-form-urlencoded decoding of one value; throws URIError on a bad %-escape. */
const formDecode = (value: string): string => decodeURIComponent(value.replaceAll('+', '%20'));
