// The library's own ceiling: oidc-provider alone, in-memory adapter, one static client, JWT
// access tokens for one API signed with ALG (ES256 or RS256), no refresh tokens, no database, no Redis.
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';

const port = Number(process.env.PORT);
const alg = process.env.ALG ?? 'ES256';
const { privateKey } = await generateKeyPair(alg, { extractable: true });
const key = { ...(await exportJWK(privateKey)), kid: 'bench', alg, use: 'sig' };
const audience = 'https://bench.example.com';

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    { client_id: 'bench', client_secret: process.env.CLIENT_SECRET, grant_types: ['client_credentials'], response_types: [], token_endpoint_auth_method: 'client_secret_post' },
  ],
  jwks: { keys: [key] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => audience,
      useGrantedResource: async () => true,
      getResourceServerInfo: async () => ({ scope: 'bench:read', audience, accessTokenTTL: 300, accessTokenFormat: 'jwt', jwt: { sign: { alg } } }),
    },
  },
  enabledJWA: { idTokenSigningAlgValues: [alg] },
  clientDefaults: { id_token_signed_response_alg: alg },
});
provider.listen(port, '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => process.exit(0));
