/**
 * Runs `work` every `intervalMs`, never two runs at once (a tick while one runs is skipped: a
 * backlog worked off in batches may take longer than the interval). `stop()` ends the timer,
 * aborts the signal `work` was given (it stops between two steps) and resolves once the run in
 * progress has ended, so the caller may close what it uses. A failure goes to `onError`; the
 * next tick runs again. The timer never keeps the process alive.
 */
export function periodic(intervalMs: number, work: (signal: AbortSignal) => Promise<unknown>, onError: (err: unknown) => void): { stop(): Promise<void> } {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= work(stopping.signal)
      .then(() => undefined)
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
