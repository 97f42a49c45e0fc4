import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { chartDir, renderChart, type Obj } from './k8s.render.js';
import { ofKind, RELEASE, renderings } from './chart.objects.js';
import { repoRoot } from './services.contract.js';

// The chart's alerts (PrometheusRule) and dashboard, checked by Prometheus's own promtool: the
// rules load (`promtool check rules`), each alert fires on the series it is for and not on their
// healthy neighbours (`promtool test rules`, test/infra/promtool/alerts.test.yaml), every
// dashboard query parses, and every metric either names is one the services export.

const withAlerts = renderChart([], RELEASE, { prometheusRule: { enabled: true }, grafanaDashboard: { enabled: true } });
const groupsOf = (objects: Obj[]) => (ofKind(objects, 'PrometheusRule')[0]?.['spec']['groups'] ?? []) as Obj[];
const rulesOf = (objects: Obj[]) => groupsOf(objects).flatMap((g) => g['rules'] as Obj[]);
const dashboardFile = join(chartDir, 'dashboards', 'hush.json');
const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8')) as Obj;
const dashboardTargets = (dashboard['panels'] as Obj[]).flatMap((p) => ((p['targets'] ?? []) as Obj[]).map((t) => ({ panel: p['title'] as string, expr: t['expr'] as string })));

/** The dashboard's variables replaced as Grafana would before querying. */
const asQuery = (expr: string) => expr.replaceAll('$namespace', 'hush').replaceAll('$__rate_interval', '5m');

/** Runs promtool in a fresh directory holding `files`; its output, or the failure with promtool's own words. */
function promtool(args: string[], files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hush-promtool-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return execFileSync('promtool', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { code?: string; stdout?: string; stderr?: string };
    if (err.code === 'ENOENT') throw new Error("promtool is not installed: `apt-get install prometheus` (Debian's package ships it; .ci/run installs it)", { cause: e });
    throw new Error(`promtool ${args.join(' ')} failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`, { cause: e });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the PrometheusRule', () => {
  it('is made only when prometheusRule.enabled, like the ServiceMonitors', () => {
    expect(ofKind(renderings.default.objects, 'PrometheusRule')).toEqual([]);
    expect(ofKind(withAlerts.objects, 'PrometheusRule').map((r) => r['metadata']['name'])).toEqual(['hush']);
    expect(ofKind(renderings.full.objects, 'PrometheusRule')[0]?.['metadata']['labels']).toMatchObject({ release: 'kube-prometheus-stack' });
  });

  it('has the alerts an operator needs, each with a severity, a summary and a description', () => {
    const alerts = rulesOf(withAlerts.objects);
    expect(alerts.map((r) => r['alert']).sort()).toEqual(
      [
        'HushDependencyDown',
        'HushEmailQueueDeep',
        'HushEmailStalled',
        'HushEmailsFailing',
        'HushEventsNotWritten',
        'HushHighErrorRate',
        'HushOutboxLagging',
        'HushSigningKeyOld',
        'HushTokenEndpointSlow',
      ].sort(),
    );
    for (const r of alerts) {
      expect({ alert: r['alert'], severity: ['critical', 'warning'].includes(r['labels']['severity']) }).toEqual({ alert: r['alert'], severity: true });
      expect(Object.keys(r['annotations']).sort()).toEqual(['description', 'summary']);
    }
  });

  it.each([
    ['default', withAlerts.objects],
    ['alternative', renderings.alternative.objects],
  ])('passes `promtool check rules` with the %s thresholds and labels', (_name, objects) => {
    expect(promtool(['check', 'rules', 'rules.yaml'], { 'rules.yaml': stringify({ groups: groupsOf(objects) }) })).toMatch(/SUCCESS: 9 rules found/);
  });

  it('fires each alert on the series it is for, and not on their healthy neighbours (`promtool test rules`)', () => {
    // The unit tests compare labels; the annotations' templates are checked above.
    const groups = groupsOf(withAlerts.objects).map((g) => ({ ...g, rules: (g['rules'] as Obj[]).map(({ annotations: _a, ...rule }) => rule) }));
    const tests = readFileSync(join(repoRoot, 'test', 'infra', 'promtool', 'alerts.test.yaml'), 'utf8');
    expect(promtool(['test', 'rules', 'alerts.test.yaml'], { 'rules.yaml': stringify({ groups }), 'alerts.test.yaml': tests })).toMatch(/SUCCESS/);
  });

  it('takes its thresholds and extra alert labels from the values', () => {
    const alerts: Record<string, Obj> = Object.fromEntries(rulesOf(renderings.alternative.objects).map((r) => [r['alert'], r]));
    expect(alerts['HushHighErrorRate']?.['expr']).toMatch(/> 0\.01\s*$/);
    expect(alerts['HushTokenEndpointSlow']?.['expr']).toMatch(/> 0\.25\n/);
    expect(alerts['HushSigningKeyOld']?.['expr']).toMatch(/> 20 \* 86400$/);
    expect(alerts['HushEmailStalled']?.['for']).toBe('30m');
    for (const r of Object.values(alerts)) expect(r['labels']).toMatchObject({ team: 'platform' });
    expect(() => renderChart([], RELEASE, { prometheusRule: { alertLabels: { severity: 'info' } } })).toThrow(/alertLabels/);
  });
});

describe('the Grafana dashboard', () => {
  it('is a ConfigMap for the dashboard sidecar only when grafanaDashboard.enabled, holding dashboards/hush.json as it is', () => {
    expect(ofKind(renderings.default.objects, 'ConfigMap').filter((c) => c['metadata']['name'] === 'hush-dashboard')).toEqual([]);
    const cm = ofKind(withAlerts.objects, 'ConfigMap').find((c) => c['metadata']['name'] === 'hush-dashboard');
    expect(cm?.['metadata']['labels']).toMatchObject({ grafana_dashboard: '1' });
    expect(JSON.parse(cm?.['data']['hush.json'] as string)).toEqual(dashboard);
  });

  it('queries one data source chosen by a variable, in the namespace chosen by another', () => {
    expect(dashboard['uid']).toBe('hush-overview');
    expect((dashboard['templating']['list'] as Obj[]).map((v) => v['name'])).toEqual(['datasource', 'namespace']);
    for (const p of (dashboard['panels'] as Obj[]).filter((x) => x['type'] !== 'row')) {
      expect({ panel: p['title'], datasource: p['datasource'] }).toEqual({ panel: p['title'], datasource: { type: 'prometheus', uid: '${datasource}' } });
      for (const t of p['targets'] as Obj[]) expect({ panel: p['title'], expr: t['expr'] }).toEqual({ panel: p['title'], expr: expect.stringContaining('namespace="$namespace"') });
    }
  });

  it('has only queries Prometheus parses (promtool, as recording rules)', () => {
    const rules = dashboardTargets.map((t, i) => ({ record: `dashboard:query_${i}`, expr: asQuery(t.expr) }));
    expect(promtool(['check', 'rules', 'dashboard.yaml'], { 'dashboard.yaml': stringify({ groups: [{ name: 'dashboard', rules }] }) })).toMatch(/SUCCESS/);
  });
});

// ---- every metric named exists -------------------------------------------------------------

/**
 * Metrics agreed for work in flight, not in the code yet: identity's count of user events it could
 * not write (the audit log's work). Once the source has it, the entry changes nothing.
 */
const AGREED_METRICS = new Set(['hush_events_unwritten_total']);

const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'inf', 'nan']);

/** The metric names a PromQL expression reads. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  // An identifier followed by `(` is a function or an aggregation, not a metric.
  return [...bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)]
    .filter((m) => !/^\s*\(/.test(bare.slice((m.index ?? 0) + m[0].length)))
    .map((m) => m[0])
    .filter((name) => !KEYWORDS.has(name.toLowerCase()));
}

/** The text of the services' and packages' source (tests left out) and of prom-client's default metrics. */
function sourceText(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ts$/.test(entry) && !/\.test\.ts$/.test(entry)) files.push(path);
    }
  };
  for (const group of ['services', 'packages'])
    for (const name of readdirSync(join(repoRoot, group))) if (existsSync(join(repoRoot, group, name, 'src'))) walk(join(repoRoot, group, name, 'src'));
  const promClient = dirname(createRequire(join(repoRoot, 'packages', 'common', 'package.json')).resolve('prom-client'));
  const defaults = readdirSync(join(promClient, 'lib', 'metrics'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(promClient, 'lib', 'metrics', f));
  return [...files, ...defaults].map((f) => readFileSync(f, 'utf8')).join('\n');
}

describe('the metrics the alerts and the dashboard read', () => {
  const source = sourceText();
  const exported = (name: string) =>
    [name, name.replace(/_(bucket|count|sum)$/, '')].some((n) => source.includes(`'${n}'`) || source.includes(`"${n}"`) || source.includes(`\`${n}\``)) || AGREED_METRICS.has(name);

  it('reads metric names out of PromQL, leaving functions, labels and keywords aside', () => {
    expect(metricNames('sum by (job, le) (rate(a_bucket{route="/x", status=~"5.."}[5m])) / on (job) b > 0.5 * 86400 unless c')).toEqual(['a_bucket', 'b', 'c']);
    expect(metricNames('histogram_quantile(0.99, sum by (le) (rate(x{namespace="$namespace"}[$__rate_interval])))')).toEqual(['x']);
  });

  it('names only metrics the services export (or prom-client exports for them)', () => {
    const named = [
      ...rulesOf(withAlerts.objects).map((r) => ({ where: r['alert'] as string, expr: r['expr'] as string })),
      ...dashboardTargets.map((t) => ({ where: t.panel, expr: t.expr })),
    ];
    const missing = named.flatMap(({ where, expr }) =>
      metricNames(expr)
        .filter((name) => !exported(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(missing).toEqual([]);
    // Each alert is about something the services export.
    for (const r of rulesOf(withAlerts.objects)) expect(metricNames(r['expr']).length).toBeGreaterThan(0);
  });

  it('would notice a metric no service exports', () => {
    expect(exported('hush_secrets_email_queue_depth')).toBe(true);
    expect(exported('hush_secrets_emails_queued_total')).toBe(false);
  });
});
