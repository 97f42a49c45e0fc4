import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { lazyRoutes } from './lazy-routes.js';

/** An app with a lazily loaded feature at /feature (answering /feature/hello) and a route after it. */
function appWith(load: () => Promise<RequestHandler>) {
  const app = express();
  app.use(lazyRoutes(['/feature'], load));
  app.get('/after', (_req, res) => {
    res.send('after');
  });
  const fault: ErrorRequestHandler = (err: Error, _req, res, _next) => {
    res.status(500).send(`fault: ${err.message}`);
  };
  app.use(fault);
  return app;
}

/** A load that counts its calls; `each` says what each call does. */
function counted(each: (call: number) => Promise<RequestHandler>) {
  const load = Object.assign(() => each(++load.calls), { calls: 0 });
  return load;
}

const feature = () =>
  express.Router().get('/feature/hello', (_req, res) => {
    res.send('hello');
  });

describe('lazyRoutes', () => {
  it('when a request is outside the mounts, then it passes on without loading the feature', async () => {
    const load = counted(async () => feature());
    const app = appWith(load);

    await request(app).get('/after').expect(200, 'after');
    await request(app).get('/featureless').expect(404);

    expect(load.calls).toBe(0);
  });

  it('when requests arrive under a mount (any case), then the feature loads once and answers them all', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = counted(async () => {
      await gate;
      return feature();
    });
    const app = appWith(load);

    const waiting = [request(app).get('/feature/hello'), request(app).get('/FEATURE/hello')].map((r) => r.then((res) => res));
    await new Promise<void>((resolve) => {
      const check = () => (load.calls > 0 ? resolve() : setImmediate(check));
      check();
    });
    release();
    const answers = await Promise.all(waiting);

    expect(answers.map((res) => [res.status, res.text])).toEqual([
      [200, 'hello'],
      [200, 'hello'],
    ]);
    expect(load.calls).toBe(1);
  });

  it('when loaded, then what the feature does not answer goes on to the later routes', async () => {
    const app = appWith(async () => feature());

    await request(app).get('/feature/hello').expect(200, 'hello');
    await request(app).get('/feature/other').expect(404);
    await request(app).get('/after').expect(200, 'after');
  });

  it('when the load fails, then that request reaches the error handler and the next one loads again', async () => {
    const load = counted(async (call) => (call === 1 ? Promise.reject(new Error('no module')) : feature()));
    const app = appWith(load);

    await request(app).get('/feature/hello').expect(500, 'fault: no module');
    await request(app).get('/feature/hello').expect(200, 'hello');

    expect(load.calls).toBe(2);
  });
});
