import { html } from '@hush/common';
import { csrfField, identityPage, pageMessages, type PageMessages } from '../pages/index.js';
import type { Enrolment } from './second-factor.js';
import { codeForm, enrolmentForm, recoveryCodesList } from './second-factor.views.js';

/* The sign-in's second step: the code page, the enrolment an organization requires, and its recovery codes. */

interface StepPage {
  base: string;
  csrf: string;
  clientName: string;
  nonce: string;
  error?: string | undefined;
  /** The page's words (English unless given). */
  m?: PageMessages | undefined;
}

const error = (text: string | undefined) => text && html`<p class="error" role="alert">${text}</p>`;
const cancel = (o: StepPage) =>
  html`<form method="post" action="${o.base}/abort">${csrfField(o.csrf)}<button class="secondary" type="submit">${(o.m ?? pageMessages('en')).text('login.cancel')}</button></form>`;

/** The code step: it names the account signing in and, when known, the attempts left before codes are refused for a while. */
export function codePage(o: StepPage & { username: string; attemptsLeft?: number | undefined }): string {
  const m = o.m ?? pageMessages('en');
  return identityPage({
    m,
    title: m.text('secondStep.title'),
    nonce: o.nonce,
    body: html`<h1>${m.text('secondStep.heading', { client: o.clientName })}</h1>
${error(o.error)}
<p>${m.html('secondStep.account', { username: o.username })}</p>
${o.attemptsLeft !== undefined && html`<p class="note" id="attempts-left">${m.text('secondStep.attemptsLeft', { left: o.attemptsLeft })}</p>`}
${codeForm({ action: `${o.base}/otp`, csrf: o.csrf, submit: m.text('secondStep.verify'), m })}
<p class="note">${m.text('secondStep.notYou')}</p>
${cancel(o)}`,
  });
}

export function requiredEnrolmentPage(o: StepPage & { enrolment: Enrolment }): string {
  const m = o.m ?? pageMessages('en');
  return identityPage({
    m,
    title: m.text('enrolment.requiredTitle'),
    nonce: o.nonce,
    body: html`<h1>${m.text('enrolment.requiredTitle')}</h1>
${error(o.error)}
<p>${m.text('enrolment.required', { client: o.clientName })}</p>
${enrolmentForm({ action: `${o.base}/enrol`, csrf: o.csrf, enrolment: o.enrolment, m })}
${cancel(o)}`,
  });
}

export function enrolledPage(o: StepPage & { codes: readonly string[] }): string {
  const m = o.m ?? pageMessages('en');
  return identityPage({
    m,
    title: m.text('enrolment.doneTitle'),
    nonce: o.nonce,
    body: html`<h1>${m.text('enrolment.doneHeading')}</h1>
${recoveryCodesList(o.codes, m)}
<form method="post" action="${o.base}/continue">${csrfField(o.csrf)}<button type="submit" autofocus>${m.text('enrolment.continueTo', { client: o.clientName })}</button></form>`,
  });
}
