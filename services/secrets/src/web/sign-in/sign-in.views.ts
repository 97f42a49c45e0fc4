import { html, layout } from '@hush/common';

export function signedOutPage(nonce: string): string {
  return layout({
    title: 'Signed out',
    nonce,
    body: html`<h1>You are signed out</h1>
<p>You have been signed out of Hush and of the identity service.</p>
<p><a href="/auth/sign-in">Sign in again</a></p>`,
  });
}

export function signInProblemPage(nonce: string, message: string): string {
  return layout({
    title: 'Sign-in failed',
    nonce,
    body: html`<h1>Sign-in could not be completed</h1>
<p class="error" role="alert">${message}</p>
<p><a href="/auth/sign-in">Sign in again</a></p>`,
  });
}
