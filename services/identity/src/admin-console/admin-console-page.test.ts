import type { Request } from 'express';
import type { HtmlValues, TextValues } from '@hush/common/i18n';
import { pageMessages, type PageKey } from '../pages/index.js';
import { lines, listLink, listState, pager, table, type AdminKey } from './admin-console-page.js';
import { receiptItem } from './receipts.js';

const wordsIn = (locale: 'en' | 'de') => {
  const m = pageMessages(locale);
  return { t: (k: AdminKey, v?: TextValues) => m.text(`admin.${k}` as PageKey, v), h: (k: AdminKey, v?: HtmlValues) => m.html(`admin.${k}` as PageKey, v) };
};
const c = wordsIn('en');
const request = (query: Record<string, string>) => ({ query }) as unknown as Request;
const users = (query: Record<string, string>) =>
  listState(request(query), '/c/users', ['search'], ['username', 'email', 'createdTimestamp'], { sort: 'username', direction: 'asc' });

describe('the console’s list pager', () => {
  it('when a full page is shown, then it links the next page with the same filters and order', () => {
    expect(String(pager(c, users({ search: 'ann', sort: 'email', direction: 'desc' }), 20, 20))).toBe(
      '<nav class="actions pager" aria-label="Pages"> <a href="/c/users?search=ann&amp;sort=email&amp;direction=desc&amp;first=20" rel="next">Next page</a></nav>',
    );
  });

  it('when a later, partial page is shown, then it links only the previous page', () => {
    expect(String(pager(c, users({ first: '40' }), 20, 3))).toBe('<nav class="actions pager" aria-label="Pages"><a href="/c/users?first=20" rel="prev">Previous page</a> </nav>');
  });

  it('when everything fits on the first page, then there is no pager', () => {
    expect(String(pager(c, users({}), 20, 5))).toBe('');
  });

  it('in German, the links say so', () => {
    expect(String(pager(wordsIn('de'), users({ first: '20' }), 20, 20))).toContain('>Vorige Seite</a> <a href="/c/users?first=40" rel="next">Nächste Seite</a>');
  });
});

describe('a list’s state in its URL', () => {
  it('takes only the sorts the list offers and the two directions; the defaults stay out of links', () => {
    expect(users({ sort: 'password', direction: 'sideways', first: '-3' })).toMatchObject({ sort: 'username', direction: 'asc', first: 0 });
    expect(listLink(users({ sort: 'email' }), { sort: 'username' })).toBe('/c/users');
  });

  it('a sortable header links the other direction of its column, from the first page, and says which it is sorted by', () => {
    const state = users({ search: 'x', sort: 'createdTimestamp', direction: 'desc', first: '40' });
    const out = String(
      table(
        c,
        'Users',
        [
          { label: 'Username', sort: 'username', cell: () => '' },
          { label: 'Created', sort: 'createdTimestamp', firstDirection: 'desc', cell: () => '' },
          { label: 'Organization', cell: () => '' },
        ],
        [],
        state,
      ),
    );
    expect(out).toContain('<th scope="col"><a class="sort" href="/c/users?search=x" title="Sort by Username">Username</a></th>');
    expect(out).toContain(
      '<th scope="col" aria-sort="descending"><a class="sort" href="/c/users?search=x&amp;sort=createdTimestamp&amp;direction=asc" title="Sort by Created">Created<span aria-hidden="true"> ▼</span></a></th>',
    );
    expect(out).toContain('<th scope="col">Organization</th>');
  });
});

describe('form lines', () => {
  it('splits on any line break and drops blank lines and spaces', () => {
    expect(lines(' https://a.example/cb \r\n\r\nhttps://b.example/cb\n  ')).toEqual(['https://a.example/cb', 'https://b.example/cb']);
    expect(lines(undefined)).toEqual([]);
  });
});

describe('a handover receipt', () => {
  const receipt = {
    id: 'r1',
    kind: 'client_secret',
    subjectId: 's1',
    recipient: 'ow***@<b>.com',
    created: 0,
    expires: 3600,
    state: 'received',
    deliveryStatus: 'sent',
    received: 60,
  } as const;

  it('says whether the owner opened it, and escapes what the secrets service sent', () => {
    const item = String(receiptItem(c, receipt));
    expect(item).toContain('opened by its owner (1970-01-01 00:01 UTC)');
    expect(item).toContain('e-mail delivered');
    expect(item).toContain('ow***@&lt;b&gt;.com');
  });

  it('in German', () => {
    const item = String(receiptItem(wordsIn('de'), receipt));
    expect(item).toContain('<strong>Client-Secret</strong> an ow***@&lt;b&gt;.com');
    expect(item).toContain('von der Person geöffnet');
  });
});
