import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Words written into a template rather than taken from a catalogue: where, and what. */
export interface TemplateWord {
  file: string;
  line: number;
  text: string;
}

/** Attributes a person reads (or hears from a screen reader). */
const READ_ATTRIBUTES = /\b(aria-label|placeholder|title|alt)="([^"\uE000]*)"/g;
const WORD = /\p{L}{2,}/u;
const ATTRIBUTES_ONLY = /^(?:[\s\uE000]+[a-z][a-z-]*(?:="[^"]*")?)+[\s\uE000]*$/;

/** Every `.ts` file under `dir` but tests. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/**
 * The words in the literal text of every html`…` template of `files`: the text between tags and
 * the attributes a person reads, with each interpolation (a catalogue's message, a value) left
 * out. A page whose words all come from its catalogue has none. Parsed with the TypeScript
 * compiler (loaded only here), so a template is found however it is laid out.
 */
export async function wordsInTemplates(files: readonly string[]): Promise<TemplateWord[]> {
  const ts = (await import('typescript')).default;
  const found: TemplateWord[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: import('typescript').Node): void => {
      if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'html') {
        const t = node.template;
        // Interpolations become a private-use character: a tag split by one is still one tag.
        const joined = ts.isNoSubstitutionTemplateLiteral(t) ? t.text : [t.head.text, ...t.templateSpans.map((s) => s.literal.text)].join('\uE000');
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        for (const [, , value] of joined.matchAll(READ_ATTRIBUTES)) if (value && WORD.test(value)) found.push({ file, line, text: value });
        // A fragment of attributes (html` autofocus`, html` data-x="${…}"`): only the attributes above are read.
        const text = ATTRIBUTES_ONLY.test(joined)
          ? ''
          : joined
              .replace(/<[^>]*>/g, ' ')
              .replace(/&[a-z]+;|&#\d+;/g, ' ')
              .replace(/\uE000/g, ' ');
        for (const piece of text.split(/\s{2,}|\n/)) if (WORD.test(piece)) found.push({ file, line, text: piece.trim() });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
