/**
 * The services' first module (`node --import=@hush/telemetry/register …`, their start scripts and
 * images): when the OTEL_* variables ask for traces, it starts the OpenTelemetry SDK and the
 * module hooks that instrument HTTP, Express, PostgreSQL and Redis, before any of those is
 * imported. Otherwise it returns at once: no SDK is loaded and no hook is installed.
 */
import { tracingRequested } from './switch.js';

if (tracingRequested(process.env)) {
  const { startTracing } = await import('./sdk.js');
  await startTracing(process.env);
}
