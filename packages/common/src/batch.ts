/**
 * Coalesces the calls made during one event-loop turn into a single call of `run` (the DataLoader
 * pattern). Under load the token endpoint then sends one statement for many concurrent requests
 * instead of one each: on our 2-core machines a socket write costs more than the query itself.
 * `run` returns one result per item, in order; if it throws, every caller in the batch sees it.
 */
export function batched<I, O>(run: (items: I[]) => Promise<O[]>): (item: I) => Promise<O> {
  let queue: { item: I; resolve: (value: O) => void; reject: (err: unknown) => void }[] = [];

  const flush = async () => {
    const batch = queue;
    queue = [];
    try {
      const results = await run(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i] as O));
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      if (queue.push({ item, resolve, reject }) === 1) setImmediate(() => void flush());
    });
}
