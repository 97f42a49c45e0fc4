import { html } from '@hush/common';
import { consolePage } from './console-layout.js';

const page = (username: string) =>
  consolePage({
    console: 'Account',
    nav: [
      { href: '/a/', label: 'Profile' },
      { href: '/a/sessions', label: 'Sessions' },
    ],
    current: '/a/sessions',
    title: 'Sessions',
    nonce: 'n0nce',
    csrf: 'tok',
    signOutPath: '/a/sign-out',
    username,
    body: html`<p>body</p>`,
  });

describe('consolePage', () => {
  it('marks the current page in a labelled navigation; the header names the product and the person beside Sign out, its form carrying the CSRF token', () => {
    const out = page('erin');
    expect(out).toContain('<nav aria-label="Account">');
    expect(out).toContain('<a href="/a/sessions" aria-current="page">Sessions</a>');
    expect(out).toContain('<a href="/a/">Profile</a>');
    expect(out).toMatch(/<header class="masthead wide"><a class="product" href="[^"]+" aria-label="Hush, your account">Hush<\/a>/);
    expect(out).toMatch(
      /<form method="post" action="\/a\/sign-out" aria-label="Signed in"><input type="hidden" name="csrf" value="tok"><span class="note" id="signed-in-as">erin<\/span> <button type="submit" class="link" id="sign-out">Sign out<\/button>/,
    );
    expect(out).toContain('<h1>Sessions</h1>');
    expect(out).toContain('<style nonce="n0nce">');
  });

  it('escapes the username', () => {
    expect(page('<script>x</script>')).toContain('&lt;script&gt;x&lt;/script&gt;');
  });
});
