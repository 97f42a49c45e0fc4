import { html, raw, type Html } from './html.js';
import { STYLESHEET } from './stylesheet.js';

export interface PageOptions {
  /** The page's own title; the document's is "<title> · Hush". */
  title: string;
  /** The response's CSP nonce (`nonceOf(res)`): without it the stylesheet and script are blocked. */
  nonce: string;
  /** What goes inside the main landmark. */
  body: Html;
  /** A script we wrote (never user input), run under the nonce. Pages work without it. */
  script?: string;
  /** A script file of our own origin, run (before `script`) under the nonce and checked by Subresource Integrity. */
  external?: { src: string; integrity: string } | undefined;
  /** The language of the page's words (BCP 47); default English. */
  lang?: string | undefined;
  /** A banner above the main landmark (the product's name, the signed-in person, a language switcher). */
  header?: Html | undefined;
}

const stylesheet = raw(STYLESHEET);

/** The one page layout: a complete document, never indexed, the body in a single main landmark. */
export function layout(page: PageOptions): string {
  return String(html`<!doctype html>
<html lang="${page.lang ?? 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta name="color-scheme" content="light dark"><title>${page.title} · Hush</title>
<style nonce="${page.nonce}">${stylesheet}</style></head>
<body>${page.header}<main>${page.body}</main>${page.external && html`<script src="${page.external.src}" integrity="${page.external.integrity}" nonce="${page.nonce}"></script>`}${
    page.script && html`<script nonce="${page.nonce}">${raw(page.script)}</script>`
  }</body></html>`);
}
