import { redactRepresentation } from './redact.js';

describe('redactRepresentation', () => {
  it('removes secrets, passwords and credentials at any depth, and keeps the rest', () => {
    const rep = {
      clientId: 'app',
      secret: 'client secret',
      attributes: { 'client.secret.creation.time': '1', 'pkce.code.challenge.method': 'S256' },
      credentials: [{ type: 'password', value: 'hunter22!' }],
      nested: [{ password: 'p', name: 'n', value: 'v', access_token: 't' }],
    };
    expect(redactRepresentation(rep)).toEqual({ clientId: 'app', attributes: { 'pkce.code.challenge.method': 'S256' }, nested: [{ name: 'n' }] });
  });

  it('a bare value (an id) stays', () => {
    expect(redactRepresentation('b1c0ffee')).toBe('b1c0ffee');
  });
});
