import express from 'express';
import { formField } from '@hush/common';
import { NOTIFY_EVENTS } from '@hush/queue';
import type { PreferencesRepository } from '../../accounts/preferences.repository.js';
import { wordsOf, type PageSessions } from '../shared/index.js';
import { settingsPage } from './settings.views.js';

/**
 * The signed-in account's settings: the notifications the share page asks for by default (the
 * creator still chooses per secret there). Stored per account; nothing else is kept.
 */
export function settingsRoutes(preferences: PreferencesRepository, sessions: PageSessions): express.Router {
  const router = express.Router();

  router.get('/settings', sessions.signedIn, async (req, res) => {
    const s = sessions.sessionOf(res);
    const { notifyOn } = await preferences.get(s.custid);
    res.send(
      settingsPage(sessions.chrome(res, 'settings'), {
        csrf: sessions.csrfToken(s, 'settings'),
        notifyOn,
        address: s.email,
        notice: req.query['saved'] === '1' ? wordsOf(res).text('settings.saved') : undefined,
      }),
    );
  });

  router.post('/settings', ...sessions.post('settings'), async (req, res) => {
    const notifyOn = NOTIFY_EVENTS.filter((event) => formField(req, `notify_${event}`) !== undefined);
    await preferences.save(sessions.sessionOf(res).custid, { notifyOn });
    res.redirect(303, '/settings?saved=1');
  });

  return router;
}
