import { lines, pager } from './admin-console-page.js';
import { receiptItem } from './receipts.js';

describe('the console’s list pager', () => {
  it('when a full page is shown, then it links the next page with the same filters', () => {
    expect(String(pager('/c/users', { search: 'ann' }, 0, 20, 20))).toBe('<p class="actions"> <a href="/c/users?search=ann&amp;first=20" rel="next">Next page</a></p>');
  });

  it('when a later, partial page is shown, then it links only the previous page', () => {
    expect(String(pager('/c/users', { search: undefined }, 40, 20, 3))).toBe('<p class="actions"><a href="/c/users?first=20" rel="prev">Previous page</a> </p>');
  });

  it('when everything fits on the first page, then there is no pager', () => {
    expect(String(pager('/c/users', {}, 0, 20, 5))).toBe('');
  });
});

describe('form lines', () => {
  it('splits on any line break and drops blank lines and spaces', () => {
    expect(lines(' https://a.example/cb \r\n\r\nhttps://b.example/cb\n  ')).toEqual(['https://a.example/cb', 'https://b.example/cb']);
    expect(lines(undefined)).toEqual([]);
  });
});

describe('a handover receipt', () => {
  it('says whether the owner opened it, and escapes what the secrets service sent', () => {
    const item = String(
      receiptItem({ id: 'r1', kind: 'client_secret', recipient: 'ow***@<b>.com', created: 0, expires: 3600, state: 'received', deliveryStatus: 'sent', received: 60 }),
    );
    expect(item).toContain('opened by its owner (1970-01-01 00:01 UTC)');
    expect(item).toContain('e-mail delivered');
    expect(item).toContain('ow***@&lt;b&gt;.com');
  });
});
