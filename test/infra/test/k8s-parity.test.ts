import { join } from 'node:path';
import { kustomizeDir, renderChart, renderKustomization, type Obj } from './k8s.render.js';

// The Helm chart is the primary Kubernetes path and infra/k8s the plain-manifest one; neither is
// generated from the other, so this renders both (chart defaults, kustomize as applied) and
// compares what the services see: variables, ports, images, probes, resources, Secrets, and the
// migration steps. Names differ by design (the chart prefixes the release: hush-identity).

const chart = renderChart().objects;
const kustomize = [...renderKustomization(), ...renderKustomization(join(kustomizeDir, 'migrate'))];

const component = (o: Obj) => String(o['metadata']['labels']['app.kubernetes.io/name']).replace(/^hush-/, '');
const byKind = (objects: Obj[], kind: string) => new Map(objects.filter((o) => o['kind'] === kind).map((o) => [component(o), o]));
// The chart's object names carry the release; the base's do not.
const unprefix = (v: string) => v.replaceAll('hush-identity', 'identity').replaceAll('hush-secrets', 'secrets');

/** A container as the process sees it: variables (ConfigMap data merged in), ports, image, probes... */
function view(objects: Obj[], c: Obj, pod: Obj): Obj {
  const env: Record<string, string> = {};
  for (const from of c['envFrom'] ?? []) {
    const cm = objects.find((o) => o['kind'] === 'ConfigMap' && o['metadata']['name'] === from['configMapRef']['name']);
    for (const [k, v] of Object.entries((cm?.['data'] ?? {}) as Record<string, unknown>)) env[k] = unprefix(String(v));
  }
  for (const e of c['env'] ?? []) env[e['name']] = unprefix(String(e['value']));
  const secretOf = (volume: string) => (pod['volumes'] as Obj[]).find((v) => v['name'] === volume)?.['secret'];
  return {
    name: c['name'],
    image: String(c['image']),
    command: c['command'],
    env,
    ports: c['ports'],
    probes: [c['readinessProbe'], c['livenessProbe'], c['startupProbe']],
    resources: c['resources'],
    mounts: (c['volumeMounts'] as Obj[]).map((m) => ({ path: m['mountPath'], secret: secretOf(m['name']) })),
    lifecycle: c['lifecycle'],
  };
}
const podOf = (w: Obj): Obj => (w['kind'] === 'CronJob' ? w['spec']['jobTemplate']['spec']['template']['spec'] : w['spec']['template']['spec']);
const containers = (objects: Obj[], w: Obj) => {
  const pod = podOf(w);
  return [...(pod['initContainers'] ?? []), ...pod['containers']].map((c: Obj) => view(objects, c, pod));
};

describe('with tracing on, the Helm chart (tracing.endpoint) and the kustomize base with components/tracing agree', () => {
  const endpoint = 'http://otel-collector.monitoring:4318';
  const tracedChart = renderChart([], undefined, { tracing: { endpoint } }).objects;
  const tracedKustomize = renderKustomization(kustomizeDir, [join(kustomizeDir, 'components', 'tracing')]);

  it.each(['identity', 'secrets', 'mailer'])('on what the %s container sees, its OTEL_* variables included', (name) => {
    const ours = byKind(tracedChart, 'Deployment').get(name);
    const theirs = byKind(tracedKustomize, 'Deployment').get(name);
    const seen = ours && containers(tracedChart, ours);
    expect(seen).toEqual(theirs && containers(tracedKustomize, theirs));
    expect(seen?.[0]?.['env']['OTEL_EXPORTER_OTLP_ENDPOINT']).toBe(endpoint);
  });
});

describe('the Helm chart (defaults) and the kustomize base agree', () => {
  it.each(['identity', 'secrets', 'mailer'])('on what the %s container sees: variables, ports, image, probes, resources, Secrets', (name) => {
    const ours = byKind(chart, 'Deployment').get(name);
    const theirs = byKind(kustomize, 'Deployment').get(name);
    expect(ours && containers(chart, ours)).toEqual(theirs && containers(kustomize, theirs));
    const pod = (w: Obj | undefined) => {
      const { securityContext, automountServiceAccountToken, terminationGracePeriodSeconds } = w?.['spec']['template']['spec'] ?? {};
      return { securityContext, automountServiceAccountToken, terminationGracePeriodSeconds };
    };
    expect(pod(ours)).toEqual(pod(theirs));
  });

  it('on the migration: the same steps, images, variables and Secrets', () => {
    const ours = chart.find((o) => o['kind'] === 'Job') ?? {};
    const theirs = kustomize.find((o) => o['kind'] === 'Job') ?? {};
    expect(containers(chart, ours)).toEqual(containers(kustomize, theirs));
  });

  it('on the signing-key rotation: the same schedule, steps, image, variables and Secrets', () => {
    const ours = chart.find((o) => o['kind'] === 'CronJob') ?? {};
    const theirs = kustomize.find((o) => o['kind'] === 'CronJob') ?? {};
    expect(containers(chart, ours)).toEqual(containers(kustomize, theirs));
    expect([ours['spec']['schedule'], ours['spec']['concurrencyPolicy']]).toEqual([theirs['spec']['schedule'], theirs['spec']['concurrencyPolicy']]);
  });

  it('on the public Service ports, the autoscaling bounds and the disruption budgets', () => {
    for (const kind of ['Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget']) {
      const ours = byKind(
        chart.filter((o) => !o['metadata']['labels']['app.kubernetes.io/component']),
        kind,
      );
      const theirs = byKind(kustomize, kind);
      expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
      for (const [name, o] of ours) {
        const spec = (x: Obj | undefined) => {
          const { ports, minReplicas, maxReplicas, metrics, maxUnavailable } = x?.['spec'] ?? {};
          return { kind, name, ports, minReplicas, maxReplicas, metrics, maxUnavailable };
        };
        expect(spec(o)).toEqual(spec(theirs.get(name)));
      }
    }
  });
});
