import type { Command } from '../command.ts';
import { explain } from '../errors.ts';
import { forgetLogin, loadLogin } from './credentials.ts';
import { postForm } from './oauth.ts';

/**
 * `hush logout`: asks identity to revoke the login's refresh token (RFC 7009), then forgets the
 * login here. When identity cannot be reached, the login is forgotten all the same and hush says
 * that the refresh token stays valid until it expires.
 */
export const logoutCommand: Command = {
  summary: 'sign out: revoke the login and forget its tokens',
  usage: `Usage: hush logout [--auth-url URL]

Revokes the login's refresh token at identity and removes the login from hush's credentials file.`,
  options: {},
  async run({ settings, out, note }) {
    const login = await loadLogin(settings);
    if (!login) {
      out(`Not signed in at ${settings.authUrl}.\n`);
      return;
    }
    const token = login.refresh_token ?? login.access_token;
    if (login.revocation_endpoint) {
      try {
        await postForm(login.revocation_endpoint, { token, token_type_hint: login.refresh_token ? 'refresh_token' : 'access_token', client_id: login.client_id });
      } catch (err) {
        note(`hush: warning: identity was not told (${explain(err, settings.authUrl).message}); the login's refresh token stays valid until it expires.\n`);
      }
    }
    await forgetLogin(settings);
    out(`Signed out${login.username ? ` ${login.username}` : ''} at ${settings.authUrl}.\n`);
  },
};
