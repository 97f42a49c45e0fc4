import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inCodeBlock } from './markdown.js';

// docs/security.md names, for each promise, the tests that attack it; this keeps it from drifting
// from them. Every promise names a test; every test file named exists; every test name quoted is in
// the file it is quoted for; every attack test in a service's test/security/ folder is named. A quote is a test name when
// its paragraph or list item names a test file (`….test.ts`) before it, or says it is from the same
// file as the one before ("Same file: …"); other quotes ("Forgot password?") are the prose's own. A
// quote may leave parts of a name out with "…" and join a describe block's name to its test's with
// "›"; each part must be in the file as written, with a test's `${CONSTANT}` read as its value.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DOC = join('docs', 'security.md');
const markdown = readFileSync(join(root, DOC), 'utf8');

/** Paragraphs and list items (one per item, continuation lines joined), outside code blocks; headings end them. */
function blocks(text: string): string[] {
  const code = inCodeBlock(text);
  const found: string[] = [];
  let open = false;
  text.split('\n').forEach((line, i) => {
    if (code[i] || line.trim() === '' || /^ {0,3}#/.test(line)) {
      open = false;
      return;
    }
    if (open && !/^ {0,3}(?:[-*+]|\d+\.)\s/.test(line)) found[found.length - 1] += ` ${line.trim()}`;
    else found.push(line.trim());
    open = true;
  });
  return found;
}

interface Reference {
  file: string;
  /** A quoted test name, or undefined where the file is only named. */
  quote?: string;
}

/** The test files the document names, and the test names it quotes with the file each is quoted for. */
function references(text: string): Reference[] {
  const found: Reference[] = [];
  let previous: string | undefined;
  for (const block of blocks(text)) {
    let file = /\bsame file\b/i.test(block) ? previous : undefined;
    // Code spans and quotes in the order they come; a code span inside a quote is part of it.
    for (const m of block.matchAll(/(`+)(.*?)\1|"([^"]*)"|“([^”]*)”/g)) {
      const code = m[2];
      const quote = m[3] ?? m[4];
      if (code !== undefined && /\.test\.ts$/.test(code)) {
        file = previous = code;
        found.push({ file });
      } else if (quote !== undefined && file !== undefined) found.push({ file, quote });
    }
  }
  return found;
}

/** Typographic quotes as plain ones, escapes and line breaks gone: how a name reads in either place. */
const plain = (s: string) =>
  s
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\\(['"`])/g, '$1')
    .replace(/\s+/g, ' ');

/** A test file's text, with each `${NAME}` of a constant the file defines (`const NAME = 5;`) replaced by its value. */
function testSource(file: string): string {
  const source = readFileSync(join(root, file), 'utf8');
  const constants = new Map([...source.matchAll(/^const ([A-Z][A-Z0-9_]*) = (\d[\d_]*|'[^']*'|"[^"]*");/gm)].map((m) => [m[1], (m[2] as string).replace(/^['"]|['"]$|_/g, '')]));
  return plain(source.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (whole, name: string) => constants.get(name) ?? whole));
}

const refs = references(markdown);
/** Each numbered promise (`### N. ...`) and its section. */
const promises = markdown
  .split(/^(?=### \d+\. )/m)
  .slice(1)
  .map((section) => [section.split('\n')[0]?.replace(/^### /, '') ?? '', section] as const);
const files = [...new Set(refs.map((r) => r.file))];
const quotes = refs.filter((r): r is Required<Reference> => r.quote !== undefined);

describe('docs/security.md and the tests it names', () => {
  it('finds the files and test names it checks', () => {
    expect(promises.length).toBeGreaterThanOrEqual(11);
    expect(files.length).toBeGreaterThanOrEqual(20);
    expect(quotes.length).toBeGreaterThanOrEqual(50);
  });

  it.each(promises)('%s: names a test that attacks it', (_heading, section) => {
    expect(references(section).length).toBeGreaterThan(0);
  });

  it.each(files)('%s exists', (file) => {
    expect(existsSync(join(root, file))).toBe(true);
  });

  it.each(quotes.map((q) => [q.file, q.quote]))('%s has the test "%s"', (file, quote) => {
    if (!existsSync(join(root, file))) throw new Error(`${file} does not exist`);
    const source = testSource(file);
    const parts = plain(quote)
      .split(/…|›|\.\.\./)
      .map((part) => part.trim())
      .filter((part) => part !== '');
    expect(parts.filter((part) => !source.includes(part))).toEqual([]);
  });

  it('names every attack test in the services’ test/security/ folders', () => {
    const attackTests = readdirSync(join(root, 'services')).flatMap((service) => {
      const folder = join('services', service, 'test', 'security');
      return existsSync(join(root, folder))
        ? readdirSync(join(root, folder))
            .filter((name) => name.endsWith('.test.ts'))
            .map((name) => `${folder}/${name}`)
        : [];
    });
    expect(attackTests.length).toBeGreaterThanOrEqual(15);
    expect(attackTests.filter((file) => !files.includes(file))).toEqual([]);
  });
});
