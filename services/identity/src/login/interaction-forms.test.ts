import { credentials, loginForm } from './interaction-forms.js';

describe('the login form', () => {
  it('reads a missing field as empty and trims the username', () => {
    expect(loginForm.parse({})).toEqual({ username: '', password: '' });
    expect(loginForm.parse({ username: '  carol ', password: ' pw ', csrf: 'x' })).toEqual({ username: 'carol', password: ' pw ' });
  });

  it('holds credentials worth checking only when both fields are filled in', () => {
    expect(credentials.safeParse(loginForm.parse({ username: 'carol', password: 'pw' })).success).toBe(true);
    for (const typed of [{}, { username: '   ', password: 'pw' }, { username: 'carol' }]) {
      expect(credentials.safeParse(loginForm.parse(typed)).success).toBe(false);
    }
  });
});
