import { FORMAT_FUNCTIONS } from './format.ts';
import { PAGE_FUNCTIONS } from './pages.ts';

/**
 * The pages' script, as the secrets service serves it (from its own origin, under the page's CSP
 * nonce, with Subresource Integrity): the format's functions and the pages', their own source
 * text (Function.prototype.toString), so the browser runs exactly the code the tests and the
 * other clients run; inside one strict function scope, started once the page is parsed. No eval,
 * no module loader, no third party.
 */
export function browserScript(): string {
  const body = [...FORMAT_FUNCTIONS, ...PAGE_FUNCTIONS].map((f) => f.toString()).join('\n');
  return `(function () {\n'use strict';\n${body}\nzkPages();\n})();\n`;
}
