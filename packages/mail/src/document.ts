import { html, type Html } from '@hush/common/html';
import type { MailMessages } from './messages/index.js';

/**
 * The HTML document every e-mail of ours is sent in: inline styles only (mail clients drop
 * stylesheets), a narrow column, the subject as its title, the language of its words.
 */
export function emailDocument(subject: string, content: Html, m: Pick<MailMessages, 'locale'>): string {
  return String(html`<!doctype html>
<html lang="${m.locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${subject}</title></head>
<body style="font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; color: #1a1a1a; line-height: 1.5; max-width: 560px; margin: 0 auto; padding: 24px;">
${content}
</body>
</html>
`);
}

/** The link as a button, then as text to copy (some clients block buttons). */
export function linkButton(link: string, label: string, m: MailMessages): Html {
  return html`<p><a href="${link}" style="display: inline-block; padding: 10px 18px; background: #1f4fd1; color: #ffffff; text-decoration: none; border-radius: 6px;">${label}</a></p>
<p style="font-size: 14px;">${m.text('common.copyLink')}<br><a href="${link}">${link}</a></p>`;
}

/** A closing line in small grey print. */
export const smallPrint = (text: Html | string): Html => html`<p style="font-size: 13px; color: #666666;">${text}</p>`;
