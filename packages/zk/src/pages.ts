import {
  zkDecode,
  zkEncode,
  zkKeys,
  zkOpenHeader,
  zkOpenRecord,
  zkParams,
  zkRandom,
  zkRecordCount,
  zkRequestKeyPair,
  zkSealHeader,
  zkSealRecord,
  zkUnwrapKey,
  zkWrapKey,
  type Bytes,
  type ZkHeader,
  type ZkKeys,
} from './format.ts';

/**
 * The secrets service's pages, in the browser: what makes them zero-knowledge when JavaScript
 * runs. Each page marks what this script takes over with a `data-zk-*` attribute; without the
 * script the same pages work as before (the server encrypts), and say so. The script is made of
 * these functions and the format's (script.ts), so the same rules hold as in format.ts:
 * standalone function declarations, reaching only the DOM, the format and each other.
 *
 * Rules of every page: the key never leaves the fragment (only proofs, verifiers and ciphertext
 * are sent), the plaintext never leaves the page, and the fragment is removed from the address
 * bar (and so from the history) once it has done its work. The script holds no words: what it
 * says (status lines, refusals) is the page's, in its language, from `data-zk-words` (zkSay).
 */

/** The entry point: wires whatever this page holds. */
export function zkPages(): void {
  const find = (selector: string) => document.querySelector<HTMLElement>(selector);
  const share = find('form[data-zk-share]');
  if (share) zkShareForm(share as HTMLFormElement);
  const receipt = find('[data-zk-receipt]');
  if (receipt) zkReceipt(receipt);
  const reveal = find('form[data-zk-reveal]');
  if (reveal) zkRevealForm(reveal as HTMLFormElement);
  const ask = find('form[data-zk-request]');
  if (ask) zkRequestForm(ask as HTMLFormElement);
  const opening = find('[data-zk-opening-key]');
  if (opening) zkNewOpeningKey(opening);
  const answer = find('form[data-zk-answer]');
  if (answer) zkAnswerForm(answer as HTMLFormElement);
  // A page that sends its reader away first (to sign in, or to get a code) keeps the link's key for
  // when they come back: in this tab's storage, never in a URL the server would see.
  const fragment = location.hash.slice(1);
  if (find('[data-zk-keep-key]') && /^[A-Za-z0-9_-]{43}$/.test(fragment)) sessionStorage.setItem(zkKeptKeyName(), fragment);
}

/** Where a page keeps the key of the secret whose page this is (by its path: /secret/<key>...). */
export function zkKeptKeyName(): string {
  return `hush-zk-key:${/\/secret\/([0-9a-z]{31})/.exec(location.pathname)?.[1] ?? ''}`;
}

/**
 * One of the page's words for the script (the JSON object in the `data-zk-words` attribute the
 * page writes from its catalogue), its `{name}` placeholders filled from `values`; the key itself
 * when the page gave none.
 */
export function zkSay(key: string, values: Record<string, string | number> = {}): string {
  let words: Record<string, unknown>;
  try {
    words = JSON.parse(document.querySelector<HTMLElement>('[data-zk-words]')?.dataset['zkWords'] ?? '{}') as Record<string, unknown>;
  } catch {
    words = {};
  }
  const text = typeof words[key] === 'string' ? words[key] : key;
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : all));
}

/** Shows `message` in the page's error box (`[data-zk-error]`), or clears it. */
export function zkError(message: string | undefined): void {
  const box = document.querySelector<HTMLElement>('[data-zk-error]');
  if (!box) return;
  box.textContent = message ?? '';
  box.hidden = message === undefined;
  if (message !== undefined) box.focus();
}

/** Marks a form busy (buttons disabled, a status said) or ready again. */
export function zkBusy(form: HTMLFormElement, status: string | undefined): void {
  form.querySelectorAll('button').forEach((b) => (b.disabled = status !== undefined));
  const box = document.querySelector<HTMLElement>('[data-zk-status]');
  if (!box) return;
  box.textContent = status ?? '';
  box.hidden = status === undefined;
}

/** A JSON answer of ours; a refusal throws its message (with its code on the error). */
export async function zkJson(res: Response): Promise<Record<string, unknown>> {
  const body = ((await res.json().catch(() => undefined)) ?? {}) as Record<string, unknown>;
  // A page endpoint that sent the browser to sign in (the session ended): say so, rather than a parse error.
  if (res.redirected) throw new Error(zkSay('sessionEnded'));
  if (!res.ok) {
    const message = typeof body['message'] === 'string' ? body['message'] : zkSay('serverAnswered', { status: res.status });
    throw Object.assign(new Error(message), { code: typeof body['code'] === 'string' ? body['code'] : '' });
  }
  return body;
}

/** A file's records, encrypted one by one from slices of it, one after the other: the upload's body. */
export async function zkSealBlob(keys: ZkKeys, nonce: Bytes, file: Blob): Promise<Bytes> {
  const p = zkParams();
  const count = zkRecordCount(file.size);
  const body = new Uint8Array(file.size + count * p.tagBytes);
  for (let i = 1; i <= count; i++) {
    const plain = new Uint8Array(await file.slice((i - 1) * p.recordBytes, i * p.recordBytes).arrayBuffer());
    body.set(await zkSealRecord(keys, nonce, i, i === count, plain), (i - 1) * (p.recordBytes + p.tagBytes));
  }
  return body;
}

/** The share page: encrypt here, upload the file, share the envelope, go to the receipt with the key in its fragment. */
export function zkShareForm(form: HTMLFormElement): void {
  const mode = document.getElementById('mode');
  if (mode) {
    mode.dataset['mode'] = 'zero-knowledge';
    mode.textContent = zkSay('shareMode');
  }
  const fileBox = document.getElementById('file-box');
  if (fileBox) fileBox.hidden = false;
  const text = form.querySelector<HTMLTextAreaElement>('#secret');
  // A file alone is a secret too.
  if (text) text.required = false;
  form.addEventListener('submit', (event) => {
    const submitter = event.submitter as HTMLButtonElement | null;
    // A generated password is made by the server: that button keeps its form post.
    if (submitter?.value === 'generate') return;
    event.preventDefault();
    zkError(undefined);
    zkShare(form).catch((err: unknown) => {
      zkBusy(form, undefined);
      zkError(err instanceof Error ? err.message : String(err));
    });
  });
}

export async function zkShare(form: HTMLFormElement): Promise<void> {
  const data = new FormData(form);
  const field = (name: string) => {
    const v = data.get(name);
    return typeof v === 'string' ? v : '';
  };
  const text = field('secret');
  const file = form.querySelector<HTMLInputElement>('#file')?.files?.[0];
  if (text === '' && !file) throw new Error(zkSay('empty'));
  const max = Number(form.dataset['fileMax']);
  if (file && file.size > max) throw new Error(zkSay('fileTooLarge', { max }));
  zkBusy(form, zkSay('encrypting'));
  const key = zkRandom(32);
  const nonce = zkRandom(12);
  const passphrase = field('passphrase');
  const keys = await zkKeys(key, passphrase === '' ? undefined : passphrase);
  const header: ZkHeader = {};
  if (text !== '') header.text = text;
  if (file) header.file = { name: file.name, type: file.type, size: file.size };
  const envelope = await zkSealHeader(keys, header, nonce);
  const csrf = field('csrf');
  const fields = new URLSearchParams();
  if (file) {
    zkBusy(form, zkSay('uploading'));
    const upload = await zkJson(
      await fetch(form.dataset['upload'] ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-hush-csrf': csrf },
        body: await zkSealBlob(keys, nonce, file),
      }),
    );
    fields.set('file', String(upload['file']));
  }
  fields.set('csrf', csrf);
  fields.set('envelope', zkEncode(envelope));
  fields.set('key_verifier', keys.keyVerifier);
  if (keys.passphraseVerifier !== undefined) fields.set('passphrase_verifier', keys.passphraseVerifier);
  // The share's options, as the form has them; never the secret, the passphrase or the file.
  for (const [name, value] of data) {
    if (typeof value === 'string' && (name === 'ttl' || name === 'recipient' || name === 'recipient_only' || name === 'notify_email' || name.startsWith('notify_'))) {
      fields.set(name, value);
    }
  }
  zkBusy(form, zkSay('sharing'));
  const shared = await zkJson(await fetch(form.dataset['zkShare'] ?? '', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields }));
  location.assign(`/private/${String(shared['metadata_key'])}?created=1#${zkEncode(key)}`);
}

/** The receipt right after a share: the full link, key included, shown this once, then the fragment is gone. */
export function zkReceipt(element: HTMLElement): void {
  const fragment = location.hash.slice(1);
  if (!/^[A-Za-z0-9_-]{43}$/.test(fragment)) return;
  const input = document.getElementById('link') as HTMLInputElement | null;
  if (input) input.value = `${element.dataset['zkReceipt'] ?? ''}#${fragment}`;
  const note = document.getElementById('full-link');
  if (note) note.hidden = false;
  const missing = document.getElementById('key-note');
  if (missing) missing.hidden = true;
  history.replaceState(null, '', location.pathname + location.search);
}

/** The opening keys of the requests this browser made, newest first. */
export function zkOpeningKeys(): string[] {
  try {
    const stored = JSON.parse(localStorage.getItem('hush-zk-opening-keys') ?? '[]') as unknown;
    return Array.isArray(stored) ? stored.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** The key of the secret this reveal page is for: from the link's fragment, a pasted link or key, or a wrapped key opened with an opening key. */
export async function zkKeyOf(form: HTMLFormElement): Promise<Bytes> {
  const wrapped = form.dataset['wrappedKey'];
  if (wrapped !== undefined) {
    const typed = form.querySelector<HTMLInputElement>('#opening-key')?.value.trim();
    for (const opening of [...(typed ? [typed] : []), ...zkOpeningKeys()]) {
      try {
        return await zkUnwrapKey(opening, zkDecode(wrapped));
      } catch {
        // Not this one: the next.
      }
    }
    const box = document.getElementById('opening-box');
    if (box) box.hidden = false;
    throw new Error(zkSay('noOpeningKey'));
  }
  const pasted = form.querySelector<HTMLInputElement>('#key')?.value.trim() ?? '';
  const fragment = (pasted.includes('#') ? pasted.slice(pasted.indexOf('#') + 1) : pasted) || location.hash.slice(1) || (sessionStorage.getItem(zkKeptKeyName()) ?? '');
  if (!/^[A-Za-z0-9_-]{43}$/.test(fragment)) {
    const box = document.getElementById('key-box');
    if (box) box.hidden = false;
    throw new Error(zkSay('noKey'));
  }
  return zkDecode(fragment);
}

/** The reveal page: prove the key (and passphrase), get the envelope once, decrypt here. */
export function zkRevealForm(form: HTMLFormElement): void {
  form.hidden = false;
  const fragment = location.hash.slice(1) || (sessionStorage.getItem(zkKeptKeyName()) ?? '');
  const box = document.getElementById('key-box');
  if (box && form.dataset['wrappedKey'] === undefined && !/^[A-Za-z0-9_-]{43}$/.test(fragment)) box.hidden = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    zkError(undefined);
    zkReveal(form).catch((err: unknown) => {
      zkBusy(form, undefined);
      zkError(err instanceof Error ? err.message : String(err));
    });
  });
}

export async function zkReveal(form: HTMLFormElement): Promise<void> {
  const key = await zkKeyOf(form);
  const passphrase = form.querySelector<HTMLInputElement>('#passphrase')?.value;
  zkBusy(form, zkSay('checkingKey'));
  const keys = await zkKeys(key, passphrase === undefined || passphrase === '' ? undefined : passphrase);
  const fields = new URLSearchParams();
  fields.set('csrf', form.querySelector<HTMLInputElement>('input[name=csrf]')?.value ?? '');
  fields.set('key_proof', zkEncode(keys.keyProof));
  if (keys.passphraseProof !== undefined) fields.set('passphrase_proof', zkEncode(keys.passphraseProof));
  const code = form.querySelector<HTMLInputElement>('#code')?.value.replace(/\s+/g, '');
  if (code) fields.set('code', code);
  const read = await zkJson(await fetch(form.dataset['zkReveal'] ?? '', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields }));
  zkBusy(form, zkSay('decrypting'));
  const { header, nonce } = await zkOpenHeader(keys, zkDecode(String(read['envelope'])));
  const result = document.getElementById('result');
  const value = document.getElementById('value') as HTMLTextAreaElement | null;
  if (value && header.text !== undefined) {
    value.value = header.text;
    const textBox = document.getElementById('text-box');
    if (textBox) textBox.hidden = false;
  }
  const file = read['file'] as { url: string } | undefined;
  if (header.file !== undefined && file !== undefined) {
    zkBusy(form, zkSay('downloading'));
    const sealed = new Uint8Array(await (await fetch(file.url)).arrayBuffer());
    const blob = await zkOpenBlob(keys, nonce, header.file.size, sealed, header.file.type);
    const link = document.getElementById('download') as HTMLAnchorElement | null;
    if (link) {
      link.href = URL.createObjectURL(blob);
      link.download = header.file.name;
      link.textContent = zkSay('saveFile', { name: header.file.name, size: header.file.size });
      const fileBox = document.getElementById('file-box');
      if (fileBox) fileBox.hidden = false;
    }
  }
  form.hidden = true;
  zkBusy(form, undefined);
  if (result) result.hidden = false;
  const intro = document.getElementById('intro');
  if (intro) intro.hidden = true;
  sessionStorage.removeItem(zkKeptKeyName());
  history.replaceState(null, '', location.pathname);
}

/** A file from its records, checked against the header's size. */
export async function zkOpenBlob(keys: ZkKeys, nonce: Bytes, size: number, sealed: Bytes, type: string): Promise<Blob> {
  const p = zkParams();
  const count = zkRecordCount(size);
  if (sealed.length !== size + count * p.tagBytes) throw new Error(zkSay('fileIncomplete'));
  const step = p.recordBytes + p.tagBytes;
  const parts: Bytes[] = [];
  for (let i = 1; i <= count; i++) parts.push(await zkOpenRecord(keys, nonce, i, i === count, sealed.slice((i - 1) * step, i * step)));
  return new Blob(parts, { type: type || 'application/octet-stream' });
}

/**
 * The request form: a key pair made here as the page loads, its public key sent with the request
 * (a hidden field), its opening key kept in this browser when the form is sent (and shown once
 * after the request is made, for other devices).
 */
export function zkRequestForm(form: HTMLFormElement): void {
  const mode = document.getElementById('request-mode');
  if (mode) mode.hidden = false;
  let pair: { publicKey: string; openingKey: string } | undefined;
  zkRequestKeyPair().then(
    (made) => {
      pair = made;
      const input = form.querySelector<HTMLInputElement>('input[name=public_key]');
      if (input) input.value = made.publicKey;
    },
    (err: unknown) => zkError(err instanceof Error ? err.message : String(err)),
  );
  form.addEventListener('submit', (event) => {
    if (!pair) {
      event.preventDefault();
      zkError(zkSay('keyPairNotReady'));
      return;
    }
    localStorage.setItem('hush-zk-opening-keys', JSON.stringify([pair.openingKey, ...zkOpeningKeys()].slice(0, 50)));
    sessionStorage.setItem('hush-zk-new-request', JSON.stringify(pair));
  });
}

/** After a request is made: its opening key, shown once (it never reached the server). */
export function zkNewOpeningKey(element: HTMLElement): void {
  const made = sessionStorage.getItem('hush-zk-new-request');
  if (made === null) return;
  const { publicKey, openingKey } = JSON.parse(made) as { publicKey: string; openingKey: string };
  if (element.dataset['zkOpeningKey'] !== publicKey) return;
  sessionStorage.removeItem('hush-zk-new-request');
  const input = document.getElementById('opening-key') as HTMLInputElement | null;
  if (input) input.value = openingKey;
  element.hidden = false;
}

/** The page of the person asked, for a zero-knowledge request: encrypt here for the requester's key, send through the API. */
export function zkAnswerForm(form: HTMLFormElement): void {
  const mode = document.getElementById('mode');
  if (mode) {
    mode.dataset['mode'] = 'zero-knowledge';
    mode.textContent = zkSay('answerMode');
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    zkError(undefined);
    zkAnswer(form).catch((err: unknown) => {
      zkBusy(form, undefined);
      zkError(err instanceof Error ? err.message : String(err));
    });
  });
}

export async function zkAnswer(form: HTMLFormElement): Promise<void> {
  const text = form.querySelector<HTMLTextAreaElement>('#secret')?.value ?? '';
  if (text === '') throw new Error(zkSay('writeFirst'));
  const passphrase = form.querySelector<HTMLInputElement>('#passphrase')?.value ?? '';
  zkBusy(form, zkSay('encrypting'));
  const key = zkRandom(32);
  const keys = await zkKeys(key, passphrase === '' ? undefined : passphrase);
  const body = {
    envelope: zkEncode(await zkSealHeader(keys, { text }, zkRandom(12))),
    key_verifier: keys.keyVerifier,
    ...(keys.passphraseVerifier !== undefined ? { passphrase_verifier: keys.passphraseVerifier } : {}),
    wrapped_key: zkEncode(await zkWrapKey(form.dataset['publicKey'] ?? '', key)),
  };
  await zkJson(await fetch(form.dataset['zkAnswer'] ?? '', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  form.hidden = true;
  zkBusy(form, undefined);
  const sent = document.getElementById('sent');
  if (sent) sent.hidden = false;
}

/** The pages' functions, in the order of the script (script.ts). */
export const PAGE_FUNCTIONS: readonly ((...args: never[]) => unknown)[] = [
  zkPages,
  zkKeptKeyName,
  zkSay,
  zkError,
  zkBusy,
  zkJson,
  zkSealBlob,
  zkShareForm,
  zkShare,
  zkReceipt,
  zkOpeningKeys,
  zkKeyOf,
  zkRevealForm,
  zkReveal,
  zkOpenBlob,
  zkRequestForm,
  zkNewOpeningKey,
  zkAnswerForm,
  zkAnswer,
];
