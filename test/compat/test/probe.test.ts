import { createRequire } from 'node:module';
it('probe', async () => {
  const req = createRequire(import.meta.url);
  const m = req('onetimesecret-api/index.js');
  const c = new m.OneTimeSecretApi('a', 'b', { url: 'http://127.0.0.1:9' });
  await expect(c.status()).rejects.toThrow(/ECONNREFUSED/);
});
