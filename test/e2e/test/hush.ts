import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { cspViolations, connectChromium } from './chromium.js';
import { startIdentitySystem, type IdentitySystem } from './identity-system.js';

/**
 * The `hush` command line as people run it: its bin (packages/cli/bin/hush.mjs) started as a real
 * process, in a session of its own (no controlling terminal, so nothing it asks can reach the
 * terminal running the tests), with a home folder of its own per person: its login and opening
 * keys live there, as they would on that person's machine.
 */
export const HUSH_BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'packages', 'cli', 'bin', 'hush.mjs');

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  bytes: Buffer;
}

/** A process still running: what it printed so far, and waits on what it will print. */
export interface Running {
  child: ChildProcess;
  /** The first match of `pattern` in what it printed (stdout and stderr together), once it is there. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  type(text: string): void;
  done: Promise<Ran>;
}

function watch(child: ChildProcess): Running {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const waiting = new Set<() => void>();
  const wake = () => waiting.forEach((check) => check());
  child.stdout?.on('data', (chunk: Buffer) => (out.push(chunk), wake()));
  child.stderr?.on('data', (chunk: Buffer) => (err.push(chunk), wake()));
  const done = new Promise<Ran>((resolveDone, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const bytes = Buffer.concat(out);
      resolveDone({ code: code ?? -1, stdout: bytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), bytes });
      wake();
    });
  });
  return {
    child,
    done,
    type: (text) => void child.stdin?.write(text),
    printed: (pattern) =>
      new Promise((resolveMatch, reject) => {
        const check = () => {
          const match = pattern.exec(`${Buffer.concat(out).toString('utf8')}${Buffer.concat(err).toString('utf8')}`);
          if (match) {
            waiting.delete(check);
            resolveMatch(match);
          } else if (child.exitCode !== null) {
            waiting.delete(check);
            reject(new Error(`hush ended (${child.exitCode}) without printing ${pattern}: ${Buffer.concat(err).toString('utf8')}`));
          }
        };
        waiting.add(check);
        check();
      }),
  };
}

export interface Hush {
  /** This person's home folder (hush keeps its files in home/.config/hush). */
  home: string;
  env: Record<string, string>;
  /** Runs hush with `args` to its end; `input` on stdin (none: stdin is closed at once). */
  run(args: string[], opts?: { input?: string | Buffer; cwd?: string; env?: Record<string, string> }): Promise<Ran>;
  /** Starts hush with `args`, stdin left open. */
  start(args: string[], opts?: { cwd?: string; env?: Record<string, string> }): Running;
  /** Starts hush inside a terminal (script(1) gives it a pseudo-terminal), as a person at a keyboard runs it. */
  atTerminal(args: string[], opts?: { cwd?: string; env?: Record<string, string> }): Running;
  /** hush's credentials file of this person. */
  credentials(): Record<string, unknown>;
  writeCredentials(value: unknown): void;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** A person with hush on their machine, talking to these services; `bin`: an installed hush instead of the repository's. */
export function hushUser(urls: { secretsUrl: string; authUrl: string }, bin?: string): Hush {
  const command = bin === undefined ? [process.execPath, HUSH_BIN] : [bin];
  const home = join(tmpdir(), `hush-home-${randomBytes(6).toString('hex')}`);
  mkdirSync(home, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    HUSH_URL: urls.secretsUrl,
    HUSH_AUTH_URL: urls.authUrl,
    LANG: 'C.UTF-8',
  };
  const credentialsPath = join(home, '.config', 'hush', 'credentials.json');
  const spawnHush = (command: string, args: string[], opts: { cwd?: string; env?: Record<string, string> }) =>
    spawn(command, args, { cwd: opts.cwd ?? home, env: { ...env, ...opts.env }, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  return {
    home,
    env,
    run(args, opts = {}) {
      const running = watch(spawnHush(command[0] as string, [...command.slice(1), ...args], opts));
      running.child.stdin?.end(opts.input);
      return running.done;
    },
    start: (args, opts = {}) => watch(spawnHush(command[0] as string, [...command.slice(1), ...args], opts)),
    atTerminal: (args, opts = {}) => watch(spawnHush('script', ['-q', '-e', '-f', '-c', [...command, ...args].map(quote).join(' '), '/dev/null'], opts)),
    credentials: () => JSON.parse(readFileSync(credentialsPath, 'utf8')) as Record<string, unknown>,
    writeCredentials: (value) => writeFileSync(credentialsPath, JSON.stringify(value)),
  };
}

/**
 * `hush login` approved as a person does: hush prints the page and the code; in Chromium the
 * person opens the page, types the code, checks it, signs in and allows hush.
 */
export async function loginThroughBrowser(hush: Hush, browser: Browser, username: string, password: string): Promise<Ran> {
  const login = hush.start(['login']);
  const [, page] = await login.printed(/open this page in a browser:\s+(\S+)/);
  const [, code] = await login.printed(/enter the code\s+(\S+)/);
  const context = await browser.newContext();
  const tab = await context.newPage();
  const violations = cspViolations(tab);
  await tab.goto(page as string);
  await tab.fill('#user_code', code as string);
  await tab.click('button:has-text("Continue")');
  await expect(tab.locator('code').textContent()).resolves.toBe(code);
  await tab.click('button:has-text("Continue")');
  await tab.fill('#username', username);
  await tab.fill('#password', password);
  await tab.click('button[type=submit]:has-text("Sign in")');
  // Hush's own command line is a first-party client: no consent page.
  await expect(tab.locator('h1').textContent()).resolves.toBe('Device connected');
  expect(violations).toEqual([]);
  await context.close();
  return login.done;
}

/** The password of every person the hush tests make. */
export const PASSWORD = 'correct horse battery staple';

export interface HushSystem {
  system: IdentitySystem;
  browser: Browser;
  urls: { secretsUrl: string; authUrl: string };
  close(): Promise<void>;
}

/**
 * The whole system (startIdentitySystem) with the secrets web app on, its client secret given to
 * both services as the launcher does; `people` made in identity with PASSWORD and a verified
 * address `<name>@example.com`; and Chromium.
 */
export async function startHushSystem(people: string[]): Promise<HushSystem> {
  const webSecret = randomBytes(32).toString('hex');
  const system = await startIdentitySystem({ SECRETS_WEB_CLIENT_SECRET: webSecret }, { secretsEnv: { WEB_CLIENT_SECRET: webSecret } });
  for (const name of people) await system.identity.cli('users', 'create', name, '--password', PASSWORD, '--email', `${name}@example.com`, '--email-verified');
  const browser = await connectChromium();
  return {
    system,
    browser,
    urls: { secretsUrl: system.secrets.url, authUrl: system.identity.url },
    async close() {
      await browser.close();
      await system.close();
    },
  };
}
