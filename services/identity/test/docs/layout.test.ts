import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The README's "Where things live" is how a newcomer finds things: its table names every folder of
// src/ and only those, every file its walks name exists, and each walk stays in one folder besides
// oidc/. Each Keycloak compatibility middleware (src/oidc/keycloak/) has a test beside it.

const service = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = join(service, 'src');
const readme = readFileSync(join(service, 'README.md'), 'utf8');

/** The text of a `##` section, up to the next `##` heading. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

const whereThingsLive = section('Where things live');
const [table = '', walks = ''] = whereThingsLive.split('\n### ');
const tableFolders = [...table.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((m) => m[1]);
const srcFolders = readdirSync(src, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

test('the table lists every folder of src/, once', () => {
  expect([...tableFolders].sort()).toEqual([...srcFolders].sort());
});

test('the walks name files that exist', () => {
  const named = [...walks.matchAll(/`([a-z-]+\/[a-z0-9./-]+\.ts)`/g)].map((m) => m[1] as string);
  expect(named.length).toBeGreaterThan(20);
  expect(named.filter((path) => !existsSync(join(src, path)) && !existsSync(join(service, path)))).toEqual([]);
});

/** Each walk and the one folder it reads besides oidc/ (and the shared packages). */
const WALKS = {
  'A client-credentials token request': 'clients',
  'A password reset e-mail': 'account-links',
  'A TOTP second step': 'login',
};

/** The paragraph of a walk: from its bold title to the next blank line. */
function walk(title: string): string {
  const start = walks.indexOf(`**${title}**`);
  if (start < 0) throw new Error(`README has no walk "${title}"`);
  const end = walks.indexOf('\n\n', start);
  return walks.slice(start, end < 0 ? undefined : end);
}

test('the three walks are there', () => {
  for (const title of Object.keys(WALKS)) expect(walks).toContain(`**${title}**`);
});

test('each walk reads one folder besides oidc/', () => {
  for (const [title, folder] of Object.entries(WALKS)) {
    const files = [...walk(title).matchAll(/`([a-z-]+)\/[a-z0-9./-]+\.ts`/g)].map((m) => m[1] as string);
    expect(files.length).toBeGreaterThan(4);
    expect({ title, folders: [...new Set(files)].filter((name) => name !== 'oidc').sort() }).toEqual({ title, folders: [folder] });
  }
});

test('every Keycloak compatibility middleware has its own test', () => {
  const dir = join(src, 'oidc', 'keycloak');
  const files = readdirSync(dir);
  const untested = files.filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !files.includes(name.replace(/\.ts$/, '.test.ts')));
  expect(untested).toEqual([]);
});
