import { parseForms } from './html.js';

describe('parseForms', () => {
  it('reads action, method and every control, whatever the attribute order', () => {
    const [form] = parseForms(`
      <form method="POST" action="/login?x=1">
        <input value="tok-1" name="csrf" type="hidden">
        <input name="username" type="text" value="ann">
        <input type="password" name="password">
        <textarea name="note">two
lines</textarea>
        <button name="go" type="submit">Go</button>
      </form>`);
    expect(form).toEqual({
      action: '/login?x=1',
      method: 'post',
      fields: [
        { name: 'csrf', value: 'tok-1', type: 'hidden' },
        { name: 'username', value: 'ann', type: 'text' },
        { name: 'password', value: '', type: 'password' },
        { name: 'note', value: 'two\nlines', type: 'textarea' },
      ],
      hidden: { csrf: 'tok-1' },
      buttons: ['go'],
    });
  });

  it('accepts single quotes, no quotes and upper-case names', () => {
    const [form] = parseForms(`<FORM ACTION='/a' METHOD=post><INPUT TYPE=HIDDEN NAME='state' VALUE='s 1'><input name=plain></FORM>`);
    expect(form?.action).toBe('/a');
    expect(form?.method).toBe('post');
    expect(form?.hidden).toEqual({ state: 's 1' });
    expect(form?.fields[1]).toEqual({ name: 'plain', value: '', type: 'text' });
  });

  it('decodes entities in attributes and textarea text', () => {
    const [form] = parseForms(
      `<form action="/cb?a=1&amp;b=&#50;"><input type="hidden" name="q" value="&quot;x&quot; &lt;y&gt; &#x27;z&#x27;"><textarea name="t">a &amp; b <i>&lt;</textarea></form>`,
    );
    expect(form?.action).toBe('/cb?a=1&b=2');
    expect(form?.hidden['q']).toBe(`"x" <y> 'z'`);
    expect(form?.fields[1]?.value).toBe('a & b <i><');
  });

  it('keeps several forms apart and ignores controls outside any form', () => {
    const forms = parseForms(`<input type="hidden" name="stray" value="1">
      <form action="/one"><input type="hidden" name="a" value="1"></form>
      <form action="/two"><input type="hidden" name="b" value="2"></form>`);
    expect(forms.map((f) => [f.action, f.method, f.hidden])).toEqual([
      ['/one', 'get', { a: '1' }],
      ['/two', 'get', { b: '2' }],
    ]);
  });

  it('drops the newline that directly follows <textarea>, as a browser does', () => {
    expect(parseForms('<form><textarea name="t">\nbody</textarea></form>')[0]?.fields[0]?.value).toBe('body');
  });
});
