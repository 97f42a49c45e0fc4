import { escapeHtml, html, raw, type Html } from './html.js';

describe('escapeHtml', () => {
  it('escapes the five HTML special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('prints numbers as text, and null or undefined as nothing', () => {
    expect(escapeHtml(42)).toBe('42');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(undefined)).toBe('');
  });

  it('gives the same answer on every call (no regular expression state carried between calls)', () => {
    for (let i = 0; i < 3; i++) expect(escapeHtml('a<b')).toBe('a&lt;b');
    expect(escapeHtml('plain')).toBe('plain');
  });
});

describe('the html template', () => {
  it('escapes interpolated strings in content and attributes', () => {
    const evil = `"><script>alert(1)</script>`;
    expect(String(html`<p title="${evil}">${evil}</p>`)).toBe('<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });

  it('nests its own results and raw fragments without escaping them again', () => {
    const inner = html`<b>${'a&b'}</b>`;
    expect(String(html`<p>${inner}${raw('<br>')}</p>`)).toBe('<p><b>a&amp;b</b><br></p>');
  });

  it('concatenates arrays, escaping their strings and keeping their fragments', () => {
    const items = ['<x>', 'y'].map((s) => html`<li>${s}</li>`);
    expect(String(html`<ul>${items}</ul>`)).toBe('<ul><li>&lt;x&gt;</li><li>y</li></ul>');
    expect(String(html`${['<', html`<i></i>`, ['&']]}`)).toBe('&lt;<i></i>&amp;');
  });

  it('renders null, undefined and false as nothing, numbers as text', () => {
    const no = false as boolean;
    expect(String(html`[${null}${undefined}${no && html`<b>x</b>`}${0}${12n}]`)).toBe('[012]');
  });

  it('does not trust a look-alike object', () => {
    const fake = { text: '<script>', toString: () => '<script>' } as unknown as Html;
    expect(String(html`${fake}`)).toBe('&lt;script&gt;');
  });
});
