import express from 'express';
import supertest from 'supertest';
import { refusedForLimit } from './limit-refusal.js';

describe('refusedForLimit', () => {
  it('sets Retry-After and words the wait in whole minutes, rounded up', async () => {
    const app = express();
    app.get('/', (_req, res) => {
      res.status(429).send(refusedForLimit(res, 61, 'wrong codes'));
    });
    const res = await supertest(app).get('/');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('61');
    expect(res.text).toBe('Too many wrong codes. Try again in 2 minute(s).');
  });
});
