import { parseSecretLink } from './link.ts';

const KEY = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
const PATH = 'https://hush.example/secret/0123456789abcdefghijklmnopqrstu';

describe('a secret link', () => {
  it('with its key: the service, the secret key and the 32-byte key', () => {
    const link = parseSecretLink(`  ${PATH}#${KEY}\n`);
    expect(link).toMatchObject({ base: 'https://hush.example', secretKey: '0123456789abcdefghijklmnopqrstu' });
    expect(link.key).toHaveLength(32);
  });

  it('without a key (an answer to a request): the secret, and no key', () => {
    expect(parseSecretLink(PATH)).toEqual({ base: 'https://hush.example', secretKey: '0123456789abcdefghijklmnopqrstu', key: undefined });
  });

  it('with a key cut short or altered: refused as a wrong key (exit 5), without repeating the link', () => {
    for (const fragment of [KEY.slice(0, 40), `${KEY}x`, 'not a key']) {
      expect(() => parseSecretLink(`${PATH}#${fragment}`)).toThrow(expect.objectContaining({ exitCode: 5, message: expect.not.stringContaining(fragment) }));
    }
  });

  it('anything else is not a link hush reads (exit 2)', () => {
    for (const text of ['https://hush.example/private/0123456789abcdefghijklmnopqrstu', 'hush.example/secret/0123456789abcdefghijklmnopqrstu', '']) {
      expect(() => parseSecretLink(text)).toThrow(expect.objectContaining({ exitCode: 2 }));
    }
  });
});
