/**
 * Works off a backlog (expired rows, events past their retention) one bounded statement at a time:
 * `batch(size)` handles at most `size` rows in its own short statement and says how many it
 * handled; batches follow each other until one handles fewer than `size`. Between two batches the
 * loop waits as long as the last one took, so a backlog of millions takes at most half of one
 * connection's time and the requests around it keep theirs: no long transaction, no lock held
 * from one batch to the next, nothing a statement timeout could cut halfway. `signal` stops it
 * between two batches (the process is shutting down). Resolves to the rows handled.
 */
export async function inBoundedBatches(batch: (size: number) => Promise<number>, size: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    const started = performance.now();
    const handled = await batch(size);
    total += handled;
    if (handled < size) break;
    await pause(performance.now() - started, signal);
  }
  return total;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
