import { escapeHtml } from '@hush/common';
import type { MetadataResponse } from '../secrets/presenter.js';

/*
 * The pages a person sees: plain HTML forms that work without JavaScript, one stylesheet and one
 * small script (copy to clipboard) allowed by the page's CSP nonce, nothing from third parties.
 */

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;color:#1d2330}
main{max-width:34rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.35rem;margin-top:0}
label{display:block;margin:.8rem 0 .3rem;font-weight:600}
input,textarea{width:100%;box-sizing:border-box;padding:.55rem;font-size:1rem;border:1px solid #99a;border-radius:4px}
textarea{font-family:ui-monospace,monospace;min-height:6rem}
button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem;border-radius:4px;border:1px solid #245;background:#245;color:#fff;cursor:pointer}
button.danger{background:#8a1c1c;border-color:#8a1c1c}
button:focus,input:focus,textarea:focus{outline:3px solid #f90;outline-offset:2px}
.note{color:#555}.error{background:#fde8e8;color:#8a1c1c;padding:.6rem;border-radius:4px}
.ok{background:#e6f4ea;color:#1e5631;padding:.6rem;border-radius:4px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dt{font-weight:600}dd{margin:0}
`;

export function page(title: string, body: string, nonce: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>${escapeHtml(title)} · Hush</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><main>${body}</main>${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`;
}

/** The link from the e-mail: says a secret waits; reveals nothing until the button is pressed. */
export function waitingPage(opts: { action: string; passphraseRequired: boolean; error?: string; nonce: string }): string {
  return page(
    'A secret for you',
    `<h1>Someone sent you a secret</h1>
<p>It can be viewed <strong>once</strong>: after you reveal it, it is deleted for good.</p>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="${escapeHtml(opts.action)}">
${
  opts.passphraseRequired
    ? `<label for="passphrase">Passphrase</label>
<input id="passphrase" name="passphrase" type="password" autocomplete="off" required autofocus>
<p class="note">The sender set a passphrase; they should have told you it separately.</p>`
    : ''
}
<button type="submit" id="reveal"${opts.passphraseRequired ? '' : ' autofocus'}>Reveal the secret</button>
</form>`,
    opts.nonce,
  );
}

const COPY = `document.getElementById('copy').addEventListener('click',function(){var v=document.getElementById('value');v.select();if(navigator.clipboard){navigator.clipboard.writeText(v.value).then(function(){document.getElementById('copied').hidden=false})}else{document.execCommand('copy');document.getElementById('copied').hidden=false}});document.getElementById('copy').hidden=false;`;

export function revealedPage(value: string, nonce: string): string {
  return page(
    'Your secret',
    `<h1>Your secret</h1>
<label for="value">The secret</label>
<textarea id="value" readonly rows="4">${escapeHtml(value)}</textarea>
<button type="button" id="copy" hidden>Copy to clipboard</button> <span id="copied" class="ok" hidden>Copied</span>
<p class="note" id="deleted">This secret has now been deleted from our servers. Copy it before you leave this page: reloading will not bring it back.</p>`,
    nonce,
    COPY,
  );
}

export function gonePage(nonce: string): string {
  return page(
    'Secret not available',
    `<h1>This secret is not available</h1>
<p>It has already been viewed, was burned by its sender, or has expired. Secrets can be viewed only once.</p>
<p class="note">If you did not view it yourself, tell the sender: someone else may have.</p>`,
    nonce,
  );
}

const when = (unix: number) => (unix ? new Date(unix * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—');

const STATES: Record<MetadataResponse['state'], string> = {
  new: 'Not yet viewed',
  viewed: 'Not yet viewed',
  received: 'Viewed by the recipient',
  burned: 'Burned (deleted unread)',
  expired: 'Expired unread',
};

/** The creator's receipt: what happened to the secret, and a burn button while it is unread. */
export function receiptPage(m: MetadataResponse, burnAction: string, nonce: string, notice?: string): string {
  const unread = m.state === 'new' || m.state === 'viewed';
  const rows: [string, string][] = [
    ['State', `<span id="state" data-state="${escapeHtml(m.state)}">${escapeHtml(STATES[m.state])} (${escapeHtml(m.state)})</span>`],
    ['Created', escapeHtml(when(m.created))],
    ['Viewed', escapeHtml(when(m.received))],
    ['Secret expires', unread ? `in ${escapeHtml(Math.ceil(m.secret_ttl / 60))} minute(s)` : '—'],
    ['Passphrase', m.passphrase_required ? 'required' : 'none'],
  ];
  if (m.recipient) {
    rows.push(['Recipient', escapeHtml(m.recipient)]);
    rows.push([
      'E-mail',
      `<span id="delivery" data-status="${escapeHtml(m.delivery_status ?? '')}">${escapeHtml(m.delivery_status ?? '—')}${m.delivery_updated ? ` (${escapeHtml(when(m.delivery_updated))})` : ''}${
        m.delivery_reason ? `: ${escapeHtml(m.delivery_reason)}` : ''
      }</span>`,
    ]);
  }
  return page(
    'Receipt',
    `<h1>Secret receipt</h1>
${notice ? `<p class="ok" role="status">${escapeHtml(notice)}</p>` : ''}
<p class="note">Keep this page's address to yourself: it can burn the secret. Share only the secret link.</p>
<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>
${
  unread
    ? `<form method="post" action="${escapeHtml(burnAction)}"><button class="danger" type="submit" id="burn">Burn this secret</button></form>`
    : ''
}`,
    nonce,
  );
}
