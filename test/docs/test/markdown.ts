// Just enough of GitHub-flavoured Markdown to find a document's links and its anchors, as GitHub
// renders them: code (fenced blocks and inline spans) holds no links, and a heading's anchor is its
// text lowercased, punctuation dropped and spaces turned into hyphens, numbered when repeated.

export interface Link {
  target: string;
  line: number;
}

/** For each line, whether it belongs to a fenced code block (its fences included). */
export function inCodeBlock(markdown: string): boolean[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      return true;
    }
    if (marker !== undefined) fence = marker;
    return marker !== undefined;
  });
}

/** The document's lines with code blocks and code spans blanked out (line numbers kept). */
export function withoutCode(markdown: string): string[] {
  const code = inCodeBlock(markdown);
  return markdown.split('\n').map((line, i) => (code[i] ? '' : line.replace(/(`+)[^`]*?\1/g, '')));
}

const INLINE = /\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g; // [text](target "title"), ![alt](target)
const DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/; // [label]: target
const AUTOLINK = /<((?:https?|ftp|mailto):[^>\s]+)>/g;
const BARE = /(?<![(<"'=\w])(?:https?:\/\/|www\.)[^\s<>)\]]+/g; // GitHub links these in prose
const HTML = /\b(?:href|src)\s*=\s*["']([^"']+)["']/g;

/** Every link target in the document, with its line number (1-based). */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  withoutCode(markdown).forEach((text, i) => {
    const line = i + 1;
    for (const m of text.matchAll(INLINE)) found.push({ target: m[1] ?? '', line });
    const definition = DEFINITION.exec(text)?.[1];
    if (definition !== undefined) found.push({ target: definition, line });
    for (const m of text.matchAll(AUTOLINK)) found.push({ target: m[1] ?? '', line });
    for (const m of text.replace(INLINE, '').replace(AUTOLINK, '').matchAll(BARE)) found.push({ target: m[0].replace(/[.,;:!?*_]+$/, ''), line });
    for (const m of text.matchAll(HTML)) found.push({ target: m[1] ?? '', line });
  });
  return found;
}

/** GitHub's anchor for a heading's text (the rendered text: no link targets, code marks or emphasis). */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .replace(/(^|\s)_+|_+(\s|$)/g, '$1$2')
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a document offers: one per heading (repeats numbered -1, -2, ...) and explicit ids. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const add = (base: string) => {
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  };
  const code = inCodeBlock(markdown);
  const lines = markdown.split('\n');
  lines.forEach((line, i) => {
    if (code[i]) return;
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (atx) add(slug(atx[1] ?? ''));
    const previous = i > 0 && !code[i - 1] ? (lines[i - 1] ?? '') : '';
    if (/^ {0,3}(=+|-+)\s*$/.test(line) && /^ {0,3}[^\s#>|*+-]/.test(previous)) add(slug(previous));
    for (const m of line.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/g)) result.add(m[1] ?? '');
  });
  return result;
}
