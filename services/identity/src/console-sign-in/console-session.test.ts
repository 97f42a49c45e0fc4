import { safeReturnPath } from './console-session.js';

const mount = '/auth/realms/public/account';

describe('safeReturnPath', () => {
  it('keeps a path of the console, with its query', () => {
    expect(safeReturnPath(`${mount}`, mount)).toBe(mount);
    expect(safeReturnPath(`${mount}/sessions`, mount)).toBe(`${mount}/sessions`);
    expect(safeReturnPath(`${mount}/?tab=1`, mount)).toBe(`${mount}/?tab=1`);
    expect(safeReturnPath(`${mount}?tab=1`, mount)).toBe(`${mount}?tab=1`);
  });

  it.each([
    ['another origin', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/'],
    ['a backslash', `${mount}\\evil`],
    ['a doubled slash', `${mount}//evil.example`],
    ['a dot segment', `${mount}/../../admin`],
    ['an encoded dot segment', `${mount}/%2e%2e/admin`],
    ['a prefix of another path', `${mount}-other/`],
    ['another part of the site', '/auth/admin/public/console/'],
    ['a control character', `${mount}/\n`],
    ['not text', 42],
  ])('sends %s home', (_what, candidate) => {
    expect(safeReturnPath(candidate, mount)).toBe(`${mount}/`);
  });
});
