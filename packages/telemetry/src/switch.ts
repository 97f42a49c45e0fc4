/**
 * Whether this process traces, from the standard OpenTelemetry variables alone. Off unless asked
 * for: an exporter named in OTEL_TRACES_EXPORTER (other than `none`), or an OTLP endpoint set
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). OTEL_SDK_DISABLED=true
 * turns it off whatever else is set. (The specification's default exporter is `otlp`, which
 * would trace every process that sets nothing; Hush traces only where an operator asked.)
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return false;
  const exporters = (env['OTEL_TRACES_EXPORTER'] ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (exporters.length) return !exporters.every((e) => e === 'none');
  return Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim());
}
