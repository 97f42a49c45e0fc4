// What `npm start` (scripts/local.mjs) does when one of the services it runs dies: it is started
// again after a delay that doubles each time (1 s, 2 s, 4 s … at most 30 s), and the launcher says
// so; a service that dies again and again (5 times within a minute) is given up on, and then the
// whole system stops with one line naming the service, rather than leaving the others running as
// half a system nobody notices.

/**
 * The restart policy: `next()` is called when the service exited and answers the delay (ms)
 * before starting it again, or `undefined` to give up.
 */
export function restartPolicy({ maxRestarts = 5, windowMs = 60_000, firstDelayMs = 1000, maxDelayMs = 30_000 } = {}) {
  const restarts = [];
  return {
    maxRestarts,
    windowMs,
    next(now = Date.now()) {
      while (restarts.length > 0 && now - restarts[0] > windowMs) restarts.shift();
      if (restarts.length >= maxRestarts) return undefined;
      const delay = Math.min(firstDelayMs * 2 ** restarts.length, maxDelayMs);
      restarts.push(now);
      return delay;
    },
    /** Restarts within the window, the one just granted included. */
    get count() {
      return restarts.length;
    },
  };
}

const seconds = (ms) => `${Number((ms / 1000).toFixed(2))} s`;

/**
 * Keeps `name` running. `exited` is its current run (a promise of its exit code), `start()` starts
 * it again and returns the next one. `stopping()` true: the launcher is stopping everything, an
 * exit is expected. `giveUp(message)` is called once the policy refuses another restart; it must
 * stop the rest of the system.
 */
export function supervise(name, exited, start, { log, stopping, giveUp, policy = restartPolicy() }) {
  void exited.then(async (code) => {
    if (stopping()) return;
    const delay = policy.next();
    if (delay === undefined) {
      giveUp(`${name} exited (${code}) ${policy.maxRestarts + 1} times within ${seconds(policy.windowMs)}: stopping everything (its output is above)`);
      return;
    }
    log(name, `exited (${code}) unexpectedly; restarting in ${seconds(delay)} (restart ${policy.count} of at most ${policy.maxRestarts} within ${seconds(policy.windowMs)})`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (stopping()) return;
    supervise(name, start(), start, { log, stopping, giveUp, policy });
  });
}
