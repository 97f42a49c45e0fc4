import { html, layout } from '@hush/common';
import { csrfField } from '../pages/index.js';
import type { Enrolment } from './second-factor.js';
import { codeForm, enrolmentForm, recoveryCodesList } from './second-factor.views.js';

/* The sign-in's second step: the code page, the enrolment an organization requires, and its recovery codes. */

interface StepPage {
  base: string;
  csrf: string;
  clientName: string;
  nonce: string;
  error?: string | undefined;
}

const error = (text: string | undefined) => text && html`<p class="error" role="alert">${text}</p>`;
const cancel = (o: StepPage) => html`<form method="post" action="${o.base}/abort">${csrfField(o.csrf)}<button class="secondary" type="submit">Cancel</button></form>`;

export function codePage(o: StepPage): string {
  return layout({
    title: 'Second step',
    nonce: o.nonce,
    body: html`<h1>Sign in to ${o.clientName}</h1>
${error(o.error)}
<p>Your account is protected by a second step.</p>
${codeForm({ action: `${o.base}/otp`, csrf: o.csrf, submit: 'Verify' })}
${cancel(o)}`,
  });
}

export function requiredEnrolmentPage(o: StepPage & { enrolment: Enrolment }): string {
  return layout({
    title: 'Set up a second step',
    nonce: o.nonce,
    body: html`<h1>Set up a second step</h1>
${error(o.error)}
<p>Your organization requires a second step at sign-in. Set up an authenticator app to continue to ${o.clientName}.</p>
${enrolmentForm({ action: `${o.base}/enrol`, csrf: o.csrf, enrolment: o.enrolment, submit: 'Confirm' })}
${cancel(o)}`,
  });
}

export function enrolledPage(o: StepPage & { codes: readonly string[] }): string {
  return layout({
    title: 'Recovery codes',
    nonce: o.nonce,
    body: html`<h1>Your authenticator app is set up</h1>
${recoveryCodesList(o.codes)}
<form method="post" action="${o.base}/continue">${csrfField(o.csrf)}<button type="submit" autofocus>Continue to ${o.clientName}</button></form>`,
  });
}
