import { join } from 'node:path';
import { configDirOf, readSettings } from './settings.ts';

describe('settings', () => {
  it('default to the addresses npm start serves, and the seeded client', () => {
    expect(readSettings({}, { HUSH_CONFIG_DIR: '/tmp/h' })).toEqual({
      secretsUrl: 'http://localhost:3000',
      authUrl: 'http://localhost:8080',
      issuer: 'http://localhost:8080/auth/realms/public',
      clientId: 'hush-cli',
      configDir: '/tmp/h',
      apiToken: undefined,
    });
  });

  it('take flags over the environment, and a realm URL as the issuer', () => {
    const env = { HUSH_URL: 'https://env.example', HUSH_AUTH_URL: 'https://auth.example/auth/realms/staff/' };
    expect(readSettings({ url: 'https://flag.example/' }, env)).toMatchObject({ secretsUrl: 'https://flag.example', issuer: 'https://auth.example/auth/realms/staff' });
  });

  it('refuse an address that is not http(s), naming where it came from (exit 2)', () => {
    expect(() => readSettings({}, { HUSH_URL: 'ftp://x' })).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining('HUSH_URL') }));
    expect(() => readSettings({ 'auth-url': 'localhost:8080' }, {})).toThrow(expect.objectContaining({ message: expect.stringContaining('--auth-url') }));
    expect(() => readSettings({}, { HUSH_API_TOKEN: 'just-a-token' })).toThrow(expect.objectContaining({ message: expect.stringContaining('custid:api_token') }));
  });

  it("keep hush's files in the platform's per-user configuration folder", () => {
    expect(configDirOf({ XDG_CONFIG_HOME: '/home/a/.cfg' }, 'linux')).toBe(join('/home/a/.cfg', 'hush'));
    expect(configDirOf({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toBe(join('C:\\Users\\a\\AppData\\Roaming', 'hush'));
    expect(configDirOf({ HUSH_CONFIG_DIR: '/srv/hush' }, 'darwin')).toBe('/srv/hush');
  });
});
