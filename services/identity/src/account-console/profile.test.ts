import { orNull, profileErrors } from './profile.js';

const user = { username: 'erin' };

describe('profileErrors', () => {
  it('takes names, an address, or nothing at all', () => {
    expect(profileErrors(user, { firstName: 'Erin', lastName: 'Example', email: 'erin@example.com', username: 'erin' })).toEqual([]);
    expect(profileErrors(user, { email: '' })).toEqual([]);
    expect(profileErrors(user, {})).toEqual([]);
    expect(profileErrors(user, { locale: 'de' })).toEqual([]);
    expect(profileErrors(user, { locale: '' })).toEqual([]);
  });

  it('names each invalid field with Keycloak’s message key and parameters', () => {
    expect(
      profileErrors(user, { username: 'eve', firstName: 'x'.repeat(256), email: 'erin@', locale: 'fr' }).map(({ field, errorMessage, params }) => ({
        field,
        errorMessage,
        params,
      })),
    ).toEqual([
      { field: 'username', errorMessage: 'error-user-attribute-read-only', params: ['username'] },
      { field: 'firstName', errorMessage: 'error-invalid-length', params: ['firstName', '0', '255'] },
      { field: 'email', errorMessage: 'invalidEmailMessage', params: ['email', 'erin@'] },
      { field: 'locale', errorMessage: 'error-invalid-value', params: ['locale'] },
    ]);
  });
});

describe('orNull', () => {
  it('trims, and reads empty text as no value; undefined stays "not sent"', () => {
    expect(orNull('  Erin ')).toBe('Erin');
    expect(orNull('   ')).toBeNull();
    expect(orNull(null)).toBeNull();
    expect(orNull(undefined)).toBeUndefined();
  });
});
