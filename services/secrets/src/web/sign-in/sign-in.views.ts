import { html } from '@hush/common';
import { chromedPage, type Chrome } from '../shared/index.js';

export function signedOutPage(c: Chrome): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('signIn.signedOutTitle'),
    html`<h1>${m.text('signIn.signedOutHeading')}</h1>
<p class="ok" role="status">${m.text('signIn.signedOutText')}</p>
<p><a href="/auth/sign-in">${m.text('signIn.again')}</a></p>`,
  );
}

export function signInProblemPage(c: Chrome, message: string): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('signIn.failedTitle'),
    html`<h1>${m.text('signIn.failedHeading')}</h1>
<p class="error" role="alert">${message}</p>
<p><a href="/auth/sign-in">${m.text('signIn.again')}</a></p>`,
  );
}
