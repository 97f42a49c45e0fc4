// The library's own ceiling: oidc-provider alone, in-memory adapter, one static client, JWT
// access tokens for one API, no refresh tokens, no database, no Redis.
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';

const port = Number(process.env.PORT);
const { privateKey } = await generateKeyPair('ES256', { extractable: true });
const key = { ...(await exportJWK(privateKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
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
      getResourceServerInfo: async () => ({ scope: 'bench:read', audience, accessTokenTTL: 300, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }),
    },
  },
  enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
  clientDefaults: { id_token_signed_response_alg: 'ES256' },
});
provider.listen(port, '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => process.exit(0));
