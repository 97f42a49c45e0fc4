import type { Router } from 'express';
import { html } from '@hush/common';
import { CONSOLE_MOUNT, type ConsoleRequest, type ConsoleRoutes } from './admin-console-page.js';

const BASE = `${CONSOLE_MOUNT}/keys`;

interface Keys {
  keys: { kid: string; algorithm: string; status: string; stage?: string }[];
}

interface Step {
  step: 'added-next' | 'waiting' | 'promoted';
  kids: string[];
  retired: string[];
  retiring?: string[];
  promoteAfter?: string;
  retireAfterSeconds?: number;
}

const STAGES: Record<string, string> = { active: 'active: signs tokens', next: 'next: published, not signing yet', retiring: 'retiring: published until its tokens expire' };

function stepText(s: Step): string {
  const retired = s.retired.length > 0 ? ` Deleted ${s.retired.length} retired key(s).` : '';
  if (s.step === 'added-next')
    return `Step 1 done: next keys added (${s.kids.join(', ')}), published but not signing. Take the next step once every process has loaded them.${retired}`;
  if (s.step === 'waiting') return `Waiting: the next keys may be promoted after ${s.promoteAfter ?? 'a reload'}, once every process has loaded them. Try again then.${retired}`;
  return `Step 2 done: the next keys sign now (${s.kids.join(', ')}); the old ones retire after ${s.retireAfterSeconds ?? 0} s, when a further step deletes them.${retired}`;
}

/** The realm's signing keys and their rotation, one safe step at a time (the admin API's `POST /keys/rotation`). */
export function keyPages(router: Router, { get, post }: ConsoleRoutes): void {
  const show = async (c: ConsoleRequest, message?: string) => {
    const { body } = await c.api<Keys>('GET', '/keys');
    c.render(
      'keys',
      'Signing keys',
      html`${message ? html`<p class="ok" role="status">${message}</p>` : ''}<ul class="items">${body.keys.map((k) => html`<li><code>${k.kid}</code> ${k.algorithm}<br><span class="note">${STAGES[k.stage ?? ''] ?? k.status.toLowerCase()}</span></li>`)}</ul>
${
  c.has('manage-realm')
    ? html`<h2>Rotate</h2><p>Rotation takes three safe steps: add next keys; promote them once every process has loaded them; delete the old ones once their tokens have expired. Each press takes the step that is due.</p>
<form method="post" action="${BASE}/rotation">${c.csrf}<button type="submit">Take the next rotation step</button></form>`
    : ''
}`,
    );
  };

  get(router, '/keys', (c) => show(c));

  post(router, '/keys/rotation', 0, async (c) => {
    const { body } = await c.api<Step>('POST', '/keys/rotation');
    await show(c, stepText(body));
  });
}
