/**
 * Coalesces the calls made during one event-loop turn into a single call of `run` (the DataLoader
 * pattern). Under load the token endpoint then sends one statement for many concurrent requests
 * instead of one each: on our 2-core machines a socket write costs more than the query itself.
 * `run` returns one result per item, in order; if it throws, every caller in the batch sees it.
 *
 * `maxInFlight` bounds the batches running at once: while that many are out, further calls wait
 * and go together in the next batch as soon as one returns (group commit: under load, fewer and
 * larger statements instead of many small ones competing for the same cores).
 */
export function batched<I, O>(run: (items: I[]) => Promise<O[]>, { maxInFlight = Infinity }: { maxInFlight?: number } = {}): (item: I) => Promise<O> {
  let queue: { item: I; resolve: (value: O) => void; reject: (err: unknown) => void }[] = [];
  let inFlight = 0;
  let scheduled = false;

  const schedule = () => {
    if (scheduled || inFlight >= maxInFlight || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => void flush());
  };

  const flush = async () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    inFlight++;
    try {
      const results = await run(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i] as O));
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      inFlight--;
      schedule();
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}
