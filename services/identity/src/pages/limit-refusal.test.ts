import express from 'express';
import supertest from 'supertest';
import { refusedForLimit } from './limit-refusal.js';
import { pageMessages } from './messages/index.js';

describe('refusedForLimit', () => {
  it('sets Retry-After and words the wait in whole minutes, rounded up, in the page’s language', async () => {
    const app = express();
    app.get('/:locale', (req, res) => {
      res.status(429).send(refusedForLimit(res, 61, pageMessages(req.params['locale'] === 'de' ? 'de' : 'en'), 'wrongCodes'));
    });
    const res = await supertest(app).get('/en');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('61');
    expect(res.text).toBe('Too many wrong codes. Try again in 2 minutes.');
    expect((await supertest(app).get('/de')).text).toBe('Zu viele falsche Codes. Versuchen Sie es in 2 Minuten erneut.');
  });
});
