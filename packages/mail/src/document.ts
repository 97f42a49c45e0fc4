import { html, type Html } from '@hush/common/html';

/**
 * The HTML document every e-mail of ours is sent in: inline styles only (mail clients drop
 * stylesheets), a narrow column, the subject as its title.
 */
export function emailDocument(subject: string, content: Html): string {
  return String(html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${subject}</title></head>
<body style="font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; color: #1a1a1a; line-height: 1.5; max-width: 560px; margin: 0 auto; padding: 24px;">
${content}
</body>
</html>
`);
}
