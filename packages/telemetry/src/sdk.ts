/**
 * The OpenTelemetry SDK of a traced process, configured by the standard OTEL_* variables
 * (docs/deploy.md, "Tracing"). Loaded by register.ts only when tracing is asked for.
 */
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, join } from 'node:path';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type TextMapPropagator } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, getNumberFromEnv, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, TracerProvider, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { samplerFromEnv } from './sampler.js';
import { ScrubbingProcessor } from './scrub-processor.js';
import { installTracing, type SpanRole } from './tracing.js';

const ROLES: Record<SpanRole, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

/** Probes and scrapes of the management port: never traced. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export async function startTracing(env: NodeJS.ProcessEnv): Promise<void> {
  // The module hook first, so that express, pg and ioredis are wrapped when the service imports
  // them; it wraps only the modules an instrumentation asks for, nothing else.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(propagatorFromEnv(env));

  const provider = new TracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the default name.
    resource: resourceFromAttributes({ 'service.name': defaultServiceName() }).merge(detectResources({ detectors: [envDetector] })),
    sampler: samplerFromEnv(env),
    spanProcessors: [new ScrubbingProcessor(), ...(await exportersFromEnv(env)).map((exporter) => batch(exporter))],
  });
  trace.setGlobalTracerProvider(provider);

  const [{ HttpInstrumentation }, { UndiciInstrumentation }, { ExpressInstrumentation, ExpressLayerType }, { PgInstrumentation }, { IORedisInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
  ]);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?', 1)[0] ?? ''),
        // Query strings are dropped whole by the scrubber; no header is recorded.
        redactedQueryParams: [],
        redactedQueryParamsServer: [],
      }),
      new UndiciInstrumentation(),
      // Route handlers and routers, not every middleware (a dozen spans per request otherwise).
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Statements without their parameters; no span for a query outside a traced operation.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      // Command names only, never their arguments (keys, sealed jobs).
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  await waitForAllMessagesAcknowledged();

  const tracer = provider.getTracer('hush');
  const traceContext = new W3CTraceContextPropagator();
  installTracing({
    async span(name, options, work) {
      const parent = options.parent ? traceContext.extract(ROOT_CONTEXT, { traceparent: options.parent }, getter) : context.active();
      return tracer.startActiveSpan(name, { kind: ROLES[options.role ?? 'internal'], attributes: options.attributes ?? {} }, parent, async (span) => {
        try {
          return await work();
        } catch (err) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
          throw err;
        } finally {
          span.end();
        }
      });
    },
    traceparent() {
      const carrier: Record<string, string> = {};
      traceContext.inject(context.active(), carrier, setter);
      return carrier['traceparent'];
    },
    ids() {
      const span = trace.getActiveSpan()?.spanContext();
      return span && trace.isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : undefined;
    },
    outside: (work) => context.with(ROOT_CONTEXT, work),
    nameRoute(method, route) {
      const span = trace.getActiveSpan();
      if (!span) return;
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
    },
    flush: () => provider.forceFlush(),
  });
}

const getter = { get: (carrier: Record<string, string>, key: string) => carrier[key], keys: (carrier: Record<string, string>) => Object.keys(carrier) };
const setter = { set: (carrier: Record<string, string>, key: string, value: string) => void (carrier[key] = value) };

/** `hush-<service>`, from the package.json of the entry point (`@hush/identity` → `hush-identity`); OTEL_SERVICE_NAME wins. */
function defaultServiceName(): string {
  let dir = dirname(process.argv[1] ?? '.');
  for (let i = 0; i < 6; i++) {
    try {
      const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (name) return name.replace(/^@hush\//, 'hush-');
    } catch {
      /* not here: one level up */
    }
    dir = dirname(dir);
  }
  return 'hush';
}

/** OTEL_PROPAGATORS: `tracecontext` and `baggage` (the default is both); `none` for neither. */
function propagatorFromEnv(env: NodeJS.ProcessEnv): TextMapPropagator {
  const names = (env['OTEL_PROPAGATORS'] ?? 'tracecontext,baggage').split(',').map((n) => n.trim().toLowerCase());
  const propagators: TextMapPropagator[] = [];
  for (const name of names) {
    if (name === 'tracecontext') propagators.push(new W3CTraceContextPropagator());
    else if (name === 'baggage') propagators.push(new W3CBaggagePropagator());
    else if (name !== 'none' && name !== '') throw new Error(`OTEL_PROPAGATORS: ${name} is not supported (tracecontext, baggage, none)`);
  }
  return new CompositePropagator({ propagators });
}

/**
 * OTEL_TRACES_EXPORTER (`otlp` by default, `console`, `none`); an OTLP exporter speaks
 * OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL (`http/protobuf` by
 * default, `http/json`), and reads its endpoint, headers, timeout and compression from the
 * OTEL_EXPORTER_OTLP_* variables itself.
 */
async function exportersFromEnv(env: NodeJS.ProcessEnv): Promise<SpanExporter[]> {
  const names = (env['OTEL_TRACES_EXPORTER'] ?? 'otlp').split(',').map((n) => n.trim().toLowerCase());
  const exporters: SpanExporter[] = [];
  for (const name of names) {
    if (name === 'console') exporters.push(new ConsoleSpanExporter());
    else if (name === 'otlp') exporters.push(await otlpExporter(env));
    else if (name !== 'none' && name !== '') throw new Error(`OTEL_TRACES_EXPORTER: ${name} is not supported (otlp, console, none)`);
  }
  return exporters;
}

async function otlpExporter(env: NodeJS.ProcessEnv): Promise<SpanExporter> {
  const protocol = (env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL'] ?? 'http/protobuf').trim();
  if (protocol === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  if (protocol === 'http/protobuf') return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL: ${protocol} is not supported (http/protobuf, http/json)`);
}

/** The batch processor with the OTEL_BSP_* settings. */
function batch(exporter: SpanExporter): SpanProcessor {
  return new BatchSpanProcessor({
    exporter,
    scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT'),
    maxQueueSize: getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
    maxExportBatchSize: getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  });
}
