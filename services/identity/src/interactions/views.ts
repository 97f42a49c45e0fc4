import { escapeHtml } from '@hush/common';

/*
 * Server-rendered pages: plain HTML forms (keyboard usable, no JavaScript), one stylesheet
 * inlined under the page's CSP nonce, nothing loaded from third parties.
 */

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;color:#1d2330}
main{max-width:24rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}
label{display:block;margin:.8rem 0 .3rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.55rem;font-size:1rem;border:1px solid #99a;border-radius:4px}
button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem;border-radius:4px;border:1px solid #245;background:#245;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#245}
button:focus,input:focus{outline:3px solid #f90;outline-offset:2px}
.error{background:#fde8e8;color:#8a1c1c;padding:.6rem;border-radius:4px}
ul{padding-left:1.2rem} code{background:#eef;padding:0 .2rem}
`;

export function page(title: string, body: string, nonce = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Hush</title><style${nonce ? ` nonce="${nonce}"` : ''}>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export function loginPage(opts: { action: string; abort: string; csrf: string; clientName: string; username?: string; error?: string; nonce: string }): string {
  return page(
    'Sign in',
    `<h1>Sign in to ${escapeHtml(opts.clientName)}</h1>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="${escapeHtml(opts.action)}" autocomplete="on">
<input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}">
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required autofocus value="${escapeHtml(opts.username ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="${escapeHtml(opts.abort)}"><input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}"><button class="secondary" type="submit">Cancel</button></form>`,
    opts.nonce,
  );
}

export function consentPage(opts: { action: string; abort: string; csrf: string; clientName: string; scopes: string[]; apis: string[]; nonce: string }): string {
  const items = opts.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return page(
    'Authorize',
    `<h1>Allow ${escapeHtml(opts.clientName)}?</h1>
<p>${escapeHtml(opts.clientName)} asks for access to your account${opts.apis.length ? ` and to ${opts.apis.map(escapeHtml).join(', ')}` : ''}:</p>
<ul>${items}</ul>
<form method="post" action="${escapeHtml(opts.action)}"><input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}"><button type="submit" autofocus>Allow</button></form>
<form method="post" action="${escapeHtml(opts.abort)}"><input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}"><button class="secondary" type="submit">Deny</button></form>`,
    opts.nonce,
  );
}

export function errorPage(error: string, description?: string): string {
  return page('Error', `<h1>Something went wrong</h1><p class="error" role="alert"><code>${escapeHtml(error)}</code>${description ? `: ${escapeHtml(description)}` : ''}</p>`);
}

/** oidc-provider hands us its own form (with its xsrf field) to confirm an RP-initiated logout. */
export function logoutPage(form: string): string {
  return page(
    'Sign out',
    `<h1>Sign out?</h1>${form}<form><button type="submit" form="op.logoutForm" value="yes" name="logout" autofocus>Yes, sign me out</button></form>`,
  );
}

export function loggedOutPage(): string {
  return page('Signed out', '<h1>You are signed out</h1>');
}
