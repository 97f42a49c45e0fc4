import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from '../command.ts';
import { explain, OAuthError } from '../errors.ts';
import { credentialsPath, saveLogin } from './credentials.ts';
import { DEVICE_GRANT, discover, postForm, SCOPE, usernameIn, type TokenAnswer } from './oauth.ts';
import { loginOf } from './session.ts';

/** RFC 8628 §3.5: without an `interval` the device polls every 5 seconds, 5 more after each `slow_down`. */
const DEFAULT_INTERVAL_S = 5;

interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

/**
 * `hush login`: the device authorization grant (RFC 8628). hush asks identity for a code, the
 * person opens the verification page in any browser, signs in there and allows hush; hush polls
 * the token endpoint meanwhile and keeps the tokens it is given (credentials.ts).
 */
export const loginCommand: Command = {
  summary: 'sign in through a browser (the device authorization flow)',
  usage: `Usage: hush login [--auth-url URL]

Signs in to Hush's identity service: hush shows a page address and a code; open the page in any
browser (on any device), sign in there, check the code and allow hush. The login's tokens are kept
in the credentials file of hush's folder (readable by you only) and refreshed as they expire.`,
  options: {},
  async run({ settings, out, note }) {
    const { authUrl, issuer, clientId } = settings;
    try {
      const endpoints = await discover(issuer);
      const started = (await postForm(endpoints.device_authorization_endpoint, { client_id: clientId, scope: SCOPE })) as unknown as DeviceAuthorization;
      note(
        [
          'To sign in, open this page in a browser:',
          '',
          `  ${started.verification_uri}`,
          '',
          `and enter the code  ${started.user_code}`,
          ...(started.verification_uri_complete ? ['', `(or open ${started.verification_uri_complete}, which has the code in it)`] : []),
          '',
          'Waiting for you to allow hush there (Ctrl-C to stop)...',
          '',
        ].join('\n'),
      );
      let interval = (started.interval ?? DEFAULT_INTERVAL_S) * 1000;
      for (;;) {
        await sleep(interval);
        try {
          const answer = (await postForm(endpoints.token_endpoint, { grant_type: DEVICE_GRANT, device_code: started.device_code, client_id: clientId })) as unknown as TokenAnswer;
          const username = usernameIn(answer.id_token) ?? usernameIn(answer.access_token);
          await saveLogin(
            settings,
            loginOf(answer, { client_id: clientId, token_endpoint: endpoints.token_endpoint, revocation_endpoint: endpoints.revocation_endpoint, username }),
          );
          note(`The login is kept in ${credentialsPath(settings)}.\n`);
          out(`Signed in${username ? ` as ${username}` : ''} at ${authUrl}\n`);
          return;
        } catch (err) {
          if (err instanceof OAuthError && err.error === 'authorization_pending') continue;
          if (err instanceof OAuthError && err.error === 'slow_down') interval += 5000;
          else throw err;
        }
      }
    } catch (err) {
      throw explain(err, authUrl);
    }
  },
};
