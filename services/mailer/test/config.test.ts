import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../src/config.js';

describe('mailer configuration', () => {
  const MAIL_SEALING_KEY = 'ab'.repeat(32);

  test('has working defaults for local development, the sealing key aside', () => {
    expect(readConfig({ MAIL_SEALING_KEY })).toEqual({
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_TIMEOUT_MS: 1000,
      QUEUE_PREFIX: 'hush',
      SMTP_URL: 'smtp://127.0.0.1:1025',
      SMTP_TLS_REJECT_UNAUTHORIZED: true,
      SMTP_REQUIRE_TLS: false,
      MAIL_FROM: 'Hush <no-reply@localhost>',
      CONCURRENCY: 4,
      MANAGEMENT_PORT: 9002,
      LOG_LEVEL: 'info',
      IDLE_COMPACTION: true,
      SHUTDOWN_TIMEOUT: 30,
      MAIL_SEALING_KEY: Buffer.from(MAIL_SEALING_KEY, 'hex'),
      MAIL_SEALING_KEYS_PREVIOUS: [],
    });
    expect(readConfig({ MAIL_SEALING_KEY, IDLE_COMPACTION: 'false' }).IDLE_COMPACTION).toBe(false);
  });

  test('refuses to start without MAIL_SEALING_KEY, saying how to make one', () => {
    expect(() => readConfig({})).toThrow(/MAIL_SEALING_KEY: required[\s\S]*openssl rand -hex 32/);
  });

  test('reads SMTP_URL (with its password) from SMTP_URL_FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailer-config-'));
    writeFileSync(join(dir, 'smtp'), 'smtps://user:pa%40ss@mail.example.com:465\n');
    expect(readConfig({ MAIL_SEALING_KEY, SMTP_URL_FILE: join(dir, 'smtp') }).SMTP_URL).toBe('smtps://user:pa%40ss@mail.example.com:465');
  });

  test('names every bad variable', () => {
    expect(() => readConfig({ SMTP_URL: 'http://mail', CONCURRENCY: '0', SMTP_REQUIRE_TLS: 'maybe' })).toThrow(/SMTP_URL[\s\S]*SMTP_REQUIRE_TLS[\s\S]*CONCURRENCY/);
  });
});
