/**
 * `promise`'s outcome if it settles within `ms`, else `onTimeout()`'s (which may throw, to reject).
 * The timer is cleared either way, so a pending one never keeps the process alive. The promise
 * itself runs on: this bounds the wait, not the work.
 */
export function withTimeout<T, F>(promise: Promise<T>, ms: number, onTimeout: () => F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<F>((resolve) => {
    // Resolved with a promise of onTimeout's outcome: one that throws rejects the race.
    timer = setTimeout(() => resolve(Promise.resolve().then(onTimeout)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** For `withTimeout`: a wait that ran out rejects with `timed out`. */
export function timedOut(): never {
  throw new Error('timed out');
}
