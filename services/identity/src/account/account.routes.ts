import express, { type Response } from 'express';
import { html, nonceOf, pageErrorHandler, pageSecurity, type Html, type Logger } from '@hush/common';
import type { UsersRepository } from '../accounts/users.repository.js';
import { consolePage, type ConsoleSignIn } from '../consoles/index.js';
import { ACCOUNT_NAV, ACCOUNT_PAGES } from './account-nav.js';

export interface AccountConsoleDeps {
  signIn: ConsoleSignIn;
  users: Pick<UsersRepository, 'findById'>;
  logger: Logger;
}

/** The account console's pages at /auth/realms/public/account (mount the router there). */
export function accountConsole(deps: AccountConsoleDeps): express.Router {
  const { signIn } = deps;
  const router = express.Router();
  router.use(signIn.router);
  router.use(pageSecurity());

  const page = (res: Response, current: string, title: string, body: Html) =>
    res.type('html').send(
      consolePage({
        console: 'Account',
        nav: ACCOUNT_NAV,
        current,
        title,
        nonce: nonceOf(res),
        csrf: signIn.csrfToken(res),
        signOutPath: signIn.signOutPath,
        username: signIn.sessionOf(res).username,
        body,
      }),
    );

  router.get('/', signIn.requireConsoleSession, async (_req, res) => {
    const user = await deps.users.findById(signIn.sessionOf(res).userId);
    if (!user) throw new Error('signed-in user not found');
    page(
      res,
      ACCOUNT_PAGES.profile,
      'Profile',
      html`<dl><dt>Username</dt><dd>${user.username}</dd><dt>First name</dt><dd>${user.firstName ?? ''}</dd><dt>Last name</dt><dd>${user.lastName ?? ''}</dd><dt>E-mail</dt><dd>${user.email ?? ''}</dd></dl>`,
    );
  });

  router.use(pageErrorHandler(deps.logger, { fault: { message: 'The account console could not do this. Try again later.' } }));
  return router;
}
