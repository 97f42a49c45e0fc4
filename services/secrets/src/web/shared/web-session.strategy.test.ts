import type { Request, RequestHandler, Response } from 'express';
import passport from 'passport';
import type { WebSession } from './sessions.js';
import { WebSessionStrategy } from './web-session.strategy.js';

const session: WebSession = { idHash: Buffer.alloc(32), custid: 'wendy', scopes: new Set(['secrets:read']) };

/** What passport hands the page's callback for a request whose cookie loads `loaded`. */
function authenticate(loaded: () => Promise<WebSession | undefined>): Promise<{ err: unknown; user: unknown }> {
  const authenticator = new passport.Authenticator();
  authenticator.use(new WebSessionStrategy(loaded));
  return new Promise((resolve) => {
    const middleware = authenticator.authenticate('web-session', { session: false }, (err: unknown, user: unknown) => resolve({ err, user })) as RequestHandler;
    void middleware({ headers: {} } as Request, {} as Response, () => undefined);
  });
}

describe('the web session strategy', () => {
  it('authenticates a request with a live session as that session', async () => {
    expect(await authenticate(() => Promise.resolve(session))).toEqual({ err: null, user: session });
  });

  it('fails a request without one, for the page to choose what follows', async () => {
    expect(await authenticate(() => Promise.resolve(undefined))).toEqual({ err: null, user: false });
  });

  it('hands a failure to load the session on as an error', async () => {
    const outage = new Error('Connection terminated');
    expect((await authenticate(() => Promise.reject(outage))).err).toBe(outage);
  });
});
