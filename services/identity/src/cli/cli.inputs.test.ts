import { apisCreateInput, clientsCreateInput, orgsCreateInput, usersCreateInput } from './cli.inputs.js';

describe('admin CLI input', () => {
  it('reads names given comma- or space-separated, or by repeating the option, as one list', () => {
    const input = clientsCreateInput.parse({
      name: 'bot',
      grants: 'client_credentials,refresh_token',
      scopes: ['a:read', 'b:read b:write'],
      'redirect-uri': 'https://app.example/cb',
    });
    expect(input).toMatchObject({
      name: 'bot',
      grantTypes: ['client_credentials', 'refresh_token'],
      scopes: ['a:read', 'b:read', 'b:write'],
      redirectUris: ['https://app.example/cb'],
    });
    expect(input).toMatchObject({ postLogoutRedirectUris: [], webOrigins: [], public: false, clientId: undefined });
  });

  it('names a missing argument or option as the operator typed it', () => {
    expect(orgsCreateInput.safeParse({}).error?.issues[0]?.message).toBe('organization name is required');
    expect(clientsCreateInput.safeParse({ grants: 'client_credentials' }).error?.issues[0]?.message).toBe('--name is required');
    expect(usersCreateInput.safeParse({ username: '' }).error?.issues[0]?.message).toBe('username is required');
  });

  it('gives the use-cases their own field names and numbers, and leaves their rules to them', () => {
    expect(usersCreateInput.parse({ username: 'eve', password: 'short', org: 'acme' })).toEqual({ username: 'eve', password: 'short', organization: 'acme' });
    expect(apisCreateInput.parse({ identifier: 'not-a-uri', scopes: 'a', ttl: '600' })).toEqual({ identifier: 'not-a-uri', scopes: ['a'], accessTokenTtl: 600 });
    expect(apisCreateInput.safeParse({ identifier: 'https://api.example', ttl: 'soon' }).error?.issues[0]?.message).toBe('--ttl must be a number of seconds');
  });
});
