import { html, layout, type Html } from '@hush/common';
import { postForm } from '../shared/index.js';

/** How a page opens a zero-knowledge secret: its endpoint, the script, and the wrapped key of a request's answer. */
export interface ZkReveal {
  open: string;
  script: { src: string; integrity: string };
  wrappedKey?: string | undefined;
}

const ZK_INTRO = 'It was encrypted in the sender’s browser with a key that only its link holds: this page decrypts it here, in yours. Our server never had the key.';

/** The form's attributes for the zero-knowledge script, hidden until it runs (without it, such a secret cannot be opened here). */
const zkFormAttributes = (zk: ZkReveal) => html` data-zk-reveal="${zk.open}"${zk.wrappedKey !== undefined ? html` data-wrapped-key="${zk.wrappedKey}"` : ''} hidden`;

/** The boxes the script opens when the link came without its key, or the answer needs the requester's opening key. */
const zkKeyBoxes = html`<div id="key-box" hidden><label for="key">The full link, or its key</label>
<input id="key" type="text" autocomplete="off" spellcheck="false" aria-describedby="key-note">
<p class="note" id="key-note">This link came without its key (the part after #): the sender gives it to you separately.</p></div>
<div id="opening-box" hidden><label for="opening-key">Your opening key</label>
<input id="opening-key" type="text" autocomplete="off" spellcheck="false" aria-describedby="opening-note">
<p class="note" id="opening-note">It was shown when you made the request; the browser you made it in remembers it.</p></div>`;

/** Before the script runs (and instead, without it), and where it puts what it decrypted. */
function zkAround(form: Html): Html {
  return html`<noscript><p class="error" id="needs-script">This secret was encrypted in the sender’s browser, and only this page’s script can open it: turn JavaScript on for this site. Nothing was read.</p></noscript>
<p class="error" role="alert" tabindex="-1" data-zk-error hidden></p>
${form}
<p class="note" role="status" data-zk-status hidden></p>
<div id="result" hidden>
<div id="text-box" hidden><label for="value">The secret</label>
<textarea id="value" readonly rows="4"></textarea>
<button type="button" id="copy" hidden>Copy to clipboard</button> <span id="copied" class="ok" hidden>Copied</span></div>
<p id="file-box" hidden><a id="download" href="#result">Save the file</a></p>
<p class="note" id="deleted">This secret has now been deleted from our servers, and decrypted only in this browser. Copy or save it before you leave this page: reloading will not bring it back.</p>
</div>`;
}

/*
 * The recipient's pages: plain HTML forms that work without JavaScript, the shared layout and
 * stylesheet, and one small script (copy to clipboard) allowed by the page's CSP nonce.
 */

/** The link from the e-mail: says a secret waits; reveals nothing until the button is pressed. */
export function waitingPage(o: { action: string; csrf: string; passphraseRequired: boolean; error?: string; nonce: string; zk?: ZkReveal | undefined }): string {
  const form = postForm(
    o.action,
    o.csrf,
    html`${o.zk && zkKeyBoxes}${
      o.passphraseRequired &&
      html`<label for="passphrase">Passphrase</label>
<input id="passphrase" name="passphrase" type="password" autocomplete="off" required autofocus>
<p class="note">The sender set a passphrase; they should have told you it separately.</p>`
    }
<button type="submit" id="reveal"${o.passphraseRequired ? '' : html` autofocus`}>Reveal the secret</button>`,
    o.zk && zkFormAttributes(o.zk),
  );
  return layout({
    title: 'A secret for you',
    nonce: o.nonce,
    body: html`<h1>Someone sent you a secret</h1>
<p id="intro">It can be viewed <strong>once</strong>: after you reveal it, it is deleted for good.${o.zk && html` <span id="mode" data-mode="zero-knowledge">${ZK_INTRO}</span>`}</p>
${o.error && html`<p class="error" role="alert">${o.error}</p>`}
${o.zk ? zkAround(form) : form}`,
    external: o.zk?.script,
    script: o.zk && COPY,
  });
}

const COPY = `document.getElementById('copy').addEventListener('click',function(){var v=document.getElementById('value');v.select();if(navigator.clipboard){navigator.clipboard.writeText(v.value).then(function(){document.getElementById('copied').hidden=false})}else{document.execCommand('copy');document.getElementById('copied').hidden=false}});document.getElementById('copy').hidden=false;`;

export function revealedPage(value: string, nonce: string): string {
  return layout({
    title: 'Your secret',
    nonce,
    body: html`<h1>Your secret</h1>
<label for="value">The secret</label>
<textarea id="value" readonly rows="4">${value}</textarea>
<button type="button" id="copy" hidden>Copy to clipboard</button> <span id="copied" class="ok" hidden>Copied</span>
<p class="note" id="deleted">This secret has now been deleted from our servers. Copy it before you leave this page: reloading will not bring it back.</p>`,
    script: COPY,
  });
}

export function gonePage(nonce: string): string {
  return layout({
    title: 'Secret not available',
    nonce,
    body: html`<h1>This secret is not available</h1>
<p>It has already been viewed, was burned by its sender, or has expired. Secrets can be viewed only once.</p>
<p class="note">If you did not view it yourself, tell the sender: someone else may have.</p>`,
  });
}

/** A secret only one account may read, opened by anyone else: it says so, reveals nothing, and the secret stays. */
export function notYoursPage(o: { signedInAs: string | undefined; signIn: string; nonce: string }): string {
  return layout({
    title: 'Sign in to read this secret',
    nonce: o.nonce,
    body: html`<h1>This secret is for one account only</h1>
<p>It was sent through a secret request, and only the account that made the request can read it.</p>
${
  o.signedInAs === undefined
    ? html`<p><a href="${o.signIn}" id="sign-in-to-read">Sign in</a> as that account to read it.</p>`
    : html`<p id="other-account">You are signed in as <strong>${o.signedInAs}</strong>, which is not that account. Nothing was revealed, and the secret is still there for its owner.</p>`
}`,
  });
}

/**
 * A recipient-only secret, opened by someone who has not shown they are its recipient: who it is
 * for, and the two ways to show it (sign in, or a code by e-mail). Reveals nothing; the secret stays.
 */
export function recipientPage(o: {
  recipient: string;
  signedInAs: string | undefined;
  signIn: string;
  codeAction: string;
  csrf: string;
  notice?: string | undefined;
  nonce: string;
  /** A zero-knowledge secret: the script keeps the link's key in this tab while its reader signs in or gets a code. */
  zk?: { script: { src: string; integrity: string } } | undefined;
}): string {
  return layout({
    title: 'A secret for one person',
    nonce: o.nonce,
    external: o.zk?.script,
    body: html`<h1${o.zk && html` data-zk-keep-key`}>This secret is for <span id="recipient">${o.recipient}</span></h1>
<p>Only the person with this e-mail address can read it, once.</p>
${
  o.signedInAs !== undefined &&
  html`<p id="other-account" role="alert">You are signed in as <strong>${o.signedInAs}</strong>, whose verified address is not this one. Nothing was revealed, and the secret is still there for its recipient.</p>`
}
${o.notice && html`<p class="note">${o.notice}</p>`}
<h2>Is it for you?</h2>
${
  o.signedInAs === undefined
    ? html`<p><a href="${o.signIn}" id="sign-in-to-read">Sign in</a> with an account of this address, or, without an account, get a one-time code sent to it.</p>`
    : html`<p>Sign out, then sign in with an account of this address; or get a one-time code sent to it.</p>`
}
${postForm(o.codeAction, o.csrf, html`<button type="submit" id="send-code" class="secondary">E-mail me a code</button>`)}`,
  });
}

/** The code sent: the form that takes it (and the passphrase, if the sender set one), then reveals the secret. */
export function codePage(o: {
  action: string;
  codeAction: string;
  csrf: string;
  to: string;
  passphraseRequired: boolean;
  error?: string | undefined;
  notice?: string | undefined;
  nonce: string;
  zk?: ZkReveal | undefined;
}): string {
  const form = postForm(
    o.action,
    o.csrf,
    html`${o.zk && zkKeyBoxes}<label for="code">Code from the e-mail</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,8}" maxlength="8" required autofocus>
${
  o.passphraseRequired &&
  html`<label for="passphrase">Passphrase</label>
<input id="passphrase" name="passphrase" type="password" autocomplete="off" required>
<p class="note">The sender set a passphrase; they should have told you it separately.</p>`
}
<button type="submit" id="reveal">Reveal the secret</button>`,
    o.zk && zkFormAttributes(o.zk),
  );
  return layout({
    title: 'Enter your code',
    nonce: o.nonce,
    body: html`<h1>Enter the code sent to ${o.to}</h1>
${o.notice && html`<p class="ok" role="status" id="code-sent">${o.notice}</p>`}
${o.error && html`<p class="error" role="alert">${o.error}</p>`}
<p id="intro">It can be viewed <strong>once</strong>: after you reveal it, it is deleted for good.${o.zk && html` <span id="mode" data-mode="zero-knowledge">${ZK_INTRO}</span>`}</p>
${o.zk ? zkAround(form) : form}
<p class="note">No e-mail? It may take a minute.</p>
${postForm(o.codeAction, o.csrf, html`<button type="submit" id="send-code" class="secondary">Send a new code</button>`)}`,
    external: o.zk?.script,
    script: o.zk && COPY,
  });
}
