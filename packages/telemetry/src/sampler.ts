import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';

/**
 * OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, as the specification names them:
 * `parentbased_always_on` by default (a caller's sampled trace is followed), `always_on`,
 * `always_off`, `traceidratio`, `parentbased_always_off`, `parentbased_traceidratio` (the
 * argument: the ratio, 1 by default).
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const name = (env['OTEL_TRACES_SAMPLER'] ?? 'parentbased_always_on').trim().toLowerCase();
  const ratio = () => {
    const arg = Number(env['OTEL_TRACES_SAMPLER_ARG'] ?? '1');
    if (!Number.isFinite(arg) || arg < 0 || arg > 1) throw new Error('OTEL_TRACES_SAMPLER_ARG: a ratio between 0 and 1');
    return new TraceIdRatioBasedSampler(arg);
  };
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      throw new Error(`OTEL_TRACES_SAMPLER: ${name} is not supported`);
  }
}
