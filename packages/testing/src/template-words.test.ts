import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceFiles, wordsInTemplates } from './template-words.js';

test('finds the words a template holds itself, in text and read attributes, and nothing in interpolations or attribute fragments', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'template-words-'));
  writeFileSync(
    join(dir, 'page.views.ts'),
    [
      'const a = html`<p>Hello ${name}</p><button aria-label="Close" class="x">${m.text(\'k\')}</button>`;',
      'const b = html` autofocus data-zk="${url}" hidden`;',
      'const c = html`<h1>${m.text(\'title\')}</h1>\n<p class="note">Or copy it</p>`;',
      'const d = `<p>not an html template</p>`;',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'page.views.test.ts'), 'const t = html`<p>Words in a test</p>`;');
  expect(sourceFiles(dir).map((f) => f.slice(dir.length))).toEqual(['/page.views.ts']);
  expect((await wordsInTemplates(sourceFiles(dir))).map((w) => [w.line, w.text])).toEqual([
    [1, 'Close'],
    [1, 'Hello'],
    [3, 'Or copy it'],
  ]);
});
