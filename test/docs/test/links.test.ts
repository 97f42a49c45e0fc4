import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchors, links, slug } from './markdown.js';

// The documentation stands alone: a clone, read offline or on any Git host, has everything its
// documents point to. Every link in the README, the changelog, the workspaces' READMEs and docs/
// resolves inside the repository (the file exists, and so does the heading an anchor names); the
// only addresses allowed are those of a local run (localhost, 127.0.0.1).

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function markdownUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const workspaceReadmes = ['services', 'packages', 'test'].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => join(root, group, name, 'README.md'))
    .filter((path) => existsSync(path)),
);
const documents = [join(root, 'README.md'), join(root, 'CHANGELOG.md'), ...workspaceReadmes, ...markdownUnder(join(root, 'docs'))].map((path) => relative(root, path));

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const anchorsOf = new Map<string, Set<string>>();
const anchorsIn = (path: string) => anchorsOf.get(path) ?? anchorsOf.set(path, anchors(readFileSync(join(root, path), 'utf8'))).get(path)!;

/** Why a link from `document` does not resolve inside the repository, or undefined when it does. */
function problem(document: string, target: string): string | undefined {
  if (target === '') return 'an empty link';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
  if (scheme !== undefined || target.startsWith('//') || target.startsWith('www.')) {
    if (scheme !== 'http' && scheme !== 'https') return 'leaves the repository';
    return LOCAL_HOSTS.has(new URL(target).hostname) ? undefined : 'leaves the repository';
  }
  const [pathPart = '', anchor] = target.split('#', 2);
  const path = decodeURIComponent(pathPart.split('?')[0] ?? '');
  const file = path === '' ? document : relative(root, path.startsWith('/') ? join(root, path) : join(root, dirname(document), path));
  if (file.startsWith('..') || file.split(sep).includes('node_modules')) return 'points outside the repository';
  if (!existsSync(join(root, file))) return `${file} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(join(root, file)).isDirectory() || !file.endsWith('.md')) return `#${anchor} on a file that has no headings`;
  return anchorsIn(file).has(decodeURIComponent(anchor).toLowerCase()) ? undefined : `${file} has no heading #${anchor}`;
}

describe('the documentation links only inside the repository', () => {
  it('finds the documents it checks', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', join('services', 'secrets', 'README.md'), join('docs', 'api.md')]));
  });

  it.each(documents)('every link in %s resolves inside the repository', (document) => {
    const broken = links(readFileSync(join(root, document), 'utf8'))
      .map(({ target, line }) => ({ line, target, problem: problem(document, target) }))
      .filter((link) => link.problem !== undefined)
      .map((link) => `${document}:${link.line} ${link.target}: ${link.problem}`);
    expect(broken).toEqual([]);
  });
});

describe('the link checker reads Markdown as GitHub renders it', () => {
  it('when a heading has code, punctuation and emphasis, then its anchor keeps letters, digits, hyphens and underscores', () => {
    expect(slug('API dialects: `API_DIALECT=spec|onetimesecret`')).toBe('api-dialects-api_dialectspeconetimesecret');
    expect(slug('4. Signing keys: RS256 and ES256, **sealed**')).toBe('4-signing-keys-rs256-and-es256-sealed');
    expect(slug('Structure change (declared-once)')).toBe('structure-change-declared-once');
  });

  it('when two headings have the same text, then the second anchor is numbered', () => {
    expect([...anchors('# Run\n\ntext\n\n## Run\n')]).toEqual(['run', 'run-1']);
  });

  it('when a link is inside code, then it is not a link', () => {
    const found = links('see [a](a.md) and `[b](b.md)`\n\n```sh\ncurl https://example.com/\n```\n<https://example.org/> https://example.net/x.\n');
    expect(found.map((l) => l.target)).toEqual(['a.md', 'https://example.org/', 'https://example.net/x']);
  });

  it('when a link leaves the repository or names a missing file or heading, then it is reported', () => {
    expect(problem('README.md', 'https://example.com/')).toBe('leaves the repository');
    expect(problem('README.md', 'http://localhost:3000/')).toBeUndefined();
    expect(problem('README.md', 'mailto:someone@example.com')).toBe('leaves the repository');
    expect(problem('README.md', '../shared/spec.md')).toBe('points outside the repository');
    expect(problem('README.md', 'docs/no-such-file.md')).toBe(`${join('docs', 'no-such-file.md')} does not exist`);
    expect(problem('README.md', '#no-such-heading')).toBe('README.md has no heading #no-such-heading');
    expect(problem(join('docs', 'api.md'), '../README.md')).toBeUndefined();
  });
});
