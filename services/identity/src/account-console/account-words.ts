import type { RequestHandler, Response } from 'express';
import { pageMessages, wordsFor, type PageMessages } from '../pages/index.js';
import type { UsersRepository } from '../users/index.js';

/**
 * The account console's language, for pages behind the console session: the request's own hints
 * (`kc_locale`, `ui_locales`), then the person's `locale` attribute (chosen on the profile page),
 * then the language cookie and `Accept-Language` (pages/page-locale.ts).
 */
export function accountWords(userOf: (res: Response) => string, users: Pick<UsersRepository, 'findById'>): RequestHandler {
  return async (req, res, next) => {
    const user = await users.findById(userOf(res));
    res.locals['accountWords'] = wordsFor(req, res, undefined, user?.locale);
    next();
  };
}

/** The words `accountWords` chose for this page (English before it ran). */
export const wordsOf = (res: Response): PageMessages => (res.locals['accountWords'] as PageMessages | undefined) ?? pageMessages('en');
