import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// An ADR is cited by its number ("ADR 10"): each number names one decision, and the file's number
// is the one its title carries.

const adrDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'adr');
const adrs = readdirSync(adrDir)
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ name, number: /^(\d{4})-[a-z0-9-]+\.md$/.exec(name)?.[1], title: readFileSync(join(adrDir, name), 'utf8').split('\n')[0] ?? '' }));

test('every ADR file is named NNNN-words.md', () => {
  expect(adrs.filter((adr) => adr.number === undefined).map((adr) => adr.name)).toEqual([]);
});

test('no two ADRs share a number', () => {
  const byNumber = new Map<string, string[]>();
  for (const adr of adrs) byNumber.set(adr.number ?? '', [...(byNumber.get(adr.number ?? '') ?? []), adr.name]);
  expect([...byNumber.values()].filter((names) => names.length > 1)).toEqual([]);
});

test("each ADR's title carries its file's number", () => {
  const wrong = adrs.filter((adr) => adr.number !== undefined && !adr.title.startsWith(`# ${Number(adr.number)}. `));
  expect(wrong.map((adr) => `${adr.name}: ${adr.title}`)).toEqual([]);
});
