import { html, type Html } from '@hush/common';
import { flatten } from '@hush/common/i18n';
import { PAGE_CATALOGUES, type PageKey, type PageMessages } from './messages/index.js';

/** The keys of what the zero-knowledge script says (packages/zk pages.ts `zkSay`). */
const ZK_KEYS = [...flatten(PAGE_CATALOGUES.en.zk).keys()];

/**
 * The `data-zk-words` attribute of a zero-knowledge page: every status line and refusal of the
 * script, in the page's language, as a JSON object the script reads. A message's `{name}`
 * placeholders stay for the script to fill (the catalogue's messages for it have no plural).
 */
export function zkWords(m: PageMessages): Html {
  const words = Object.fromEntries(ZK_KEYS.map((key) => [key, m.text(`zk.${key}` as PageKey, { status: '{status}', max: '{max}', name: '{name}', size: '{size}' })]));
  return html` data-zk-words="${JSON.stringify(words)}"`;
}
