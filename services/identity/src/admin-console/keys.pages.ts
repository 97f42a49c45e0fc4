import type { Router } from 'express';
import { html } from '@hush/common';
import type { KeysView as Keys, RotationStepView as Step } from '../admin-api/index.js';
import { CONSOLE_MOUNT, type ConsoleRequest, type ConsoleRoutes } from './admin-console-page.js';

const BASE = `${CONSOLE_MOUNT}/keys`;

function stepText(c: ConsoleRequest, s: Step): string {
  const retired = s.retired.length > 0 ? ` ${c.t('keys.retired', { count: s.retired.length })}` : '';
  if (s.step === 'added-next') return `${c.t('keys.addedNext', { kids: s.kids.join(', ') })}${retired}`;
  if (s.step === 'waiting') return `${s.promoteAfter ? c.t('keys.waiting', { after: s.promoteAfter }) : c.t('keys.waitingReload')}${retired}`;
  return `${c.t('keys.promoted', { kids: s.kids.join(', '), seconds: s.retireAfterSeconds ?? 0 })}${retired}`;
}

/** The realm's signing keys and their rotation, one safe step at a time (the admin API's `POST /keys/rotation`). */
export function keyPages(router: Router, { get, post }: ConsoleRoutes): void {
  const show = async (c: ConsoleRequest, message?: string) => {
    const { body } = await c.api<Keys>('GET', '/keys');
    c.render(
      'keys',
      c.t('keys.title'),
      html`${message ? html`<p class="ok" role="status">${message}</p>` : ''}<ul class="items">${body.keys.map((k) => html`<li><code>${k.kid}</code> ${k.algorithm}<br><span class="note">${c.t(`keys.${k.stage}`)}</span></li>`)}</ul>
${
  c.has('manage-realm')
    ? html`<h2>${c.t('keys.rotate')}</h2><p>${c.t('keys.rotateIntro')}</p>
<form method="post" action="${BASE}/rotation">${c.csrf}<button type="submit">${c.t('keys.rotateButton')}</button></form>`
    : ''
}`,
    );
  };

  get(router, '/keys', (c) => show(c));

  post(router, '/keys/rotation', 0, async (c) => {
    const { body } = await c.api<Step>('POST', '/keys/rotation');
    await show(c, stepText(c, body));
  });
}
