import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, key256, key256List, loadConfig, url } from './config.js';

const schema = z.object({ MASTER_KEY: key256('openssl rand -hex 32'), DATABASE_URL: url('postgres://localhost/db'), NAME: z.string().default('n') });
const KEY = 'ab'.repeat(32);

describe('loadConfig: <NAME>_FILE', () => {
  let dir: string;
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hush-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the value from the file, without the trailing newline secret files end with', () => {
    const config = loadConfig(schema, { MASTER_KEY_FILE: file('key', `${KEY}\n`), DATABASE_URL_FILE: file('url', 'postgres://u:p@db:5432/x\r\n') });
    expect(config.MASTER_KEY).toEqual(Buffer.from(KEY, 'hex'));
    expect(config.DATABASE_URL).toBe('postgres://u:p@db:5432/x');
    expect(config.NAME).toBe('n');
  });

  it('validates a value from a file as a direct one, naming the key', () => {
    expect(() => loadConfig(schema, { MASTER_KEY_FILE: file('key', 'short') })).toThrow(/MASTER_KEY: must be 32 random bytes/);
  });

  it('refuses a variable set both directly and as a file', () => {
    expect(() => loadConfig(schema, { MASTER_KEY: KEY, MASTER_KEY_FILE: file('key', KEY) })).toThrow(/MASTER_KEY: set either MASTER_KEY or MASTER_KEY_FILE, not both/);
  });

  it('names a file it cannot read, and an empty one, instead of falling back to a default', () => {
    const missing = join(dir, 'missing');
    expect(() => loadConfig(schema, { MASTER_KEY: KEY, DATABASE_URL_FILE: missing })).toThrow(`DATABASE_URL_FILE: cannot read ${missing} (ENOENT)`);
    const empty = file('empty', '\n');
    expect(() => loadConfig(schema, { MASTER_KEY: KEY, DATABASE_URL_FILE: empty })).toThrow(`DATABASE_URL_FILE: ${empty} is empty`);
    expect(() => loadConfig(schema, { MASTER_KEY: KEY, DATABASE_URL_FILE: empty })).toThrow(ConfigError);
  });

  it('never puts the value read from a file in its error message', () => {
    const secret = 'postgres://svc:very-secret-password@db/x';
    const config = loadConfig(schema, { MASTER_KEY: KEY, DATABASE_URL_FILE: file('url', secret) });
    expect(config.DATABASE_URL).toBe(secret);
    let message = '';
    try {
      loadConfig(schema, { MASTER_KEY_FILE: file('key', 'not-a-key-but-secret'), DATABASE_URL_FILE: file('url2', secret) });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/MASTER_KEY/);
    expect(message).not.toMatch(/not-a-key-but-secret|very-secret-password/);
  });
});

describe('key256List (the previous keys of a key ring)', () => {
  const ring = z.object({ KEYS_PREVIOUS: key256List('the replaced keys') });
  it('is empty when unset or empty, and reads comma-separated keys in hex or base64, newest first', () => {
    expect(loadConfig(ring, {}).KEYS_PREVIOUS).toEqual([]);
    expect(loadConfig(ring, { KEYS_PREVIOUS: '' }).KEYS_PREVIOUS).toEqual([]);
    const base64 = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig(ring, { KEYS_PREVIOUS: ` ${KEY} ,${base64}` }).KEYS_PREVIOUS).toEqual([Buffer.from(KEY, 'hex'), Buffer.alloc(32, 7)]);
  });

  it('names the key that is not 32 bytes, and never shows it', () => {
    let message = '';
    try {
      loadConfig(ring, { KEYS_PREVIOUS: `${KEY},abc123` });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/KEYS_PREVIOUS: key 2: must be 32 random bytes/);
    expect(message).not.toContain('abc123');
    expect(message).not.toContain(KEY);
  });
});
