// Preloaded into the service by bench/secrets-api.mjs (node --import): measures the server's
// event-loop delay and reports it over the IPC channel. Not part of the service.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
process.on('message', (message) => {
  if (message === 'reset') histogram.reset();
  if (message === 'report') {
    process.send?.({ p50: histogram.percentile(50) / 1e6, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 });
  }
});
