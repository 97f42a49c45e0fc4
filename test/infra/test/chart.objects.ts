import { join } from 'node:path';
import { chartDir, renderChart, type ChartRendering, type Obj } from './k8s.render.js';
import { repoRoot, SERVICES, type ServiceName } from './services.contract.js';

/**
 * The chart's renderings the tests check, and how to find things in them. Five sets of values:
 * the chart's defaults; `full`, the production-like example users copy (Ingress and TLS, existing
 * Secrets, external databases through an operator's Secrets, HPAs, ServiceMonitors, alerts, the
 * dashboard, the admin Ingress); `minimal` (every optional object off); `alternative` (a cluster
 * unlike the defaults': Traefik, NodeLocal DNSCache, no Prometheus peers, a Redis URL, the admin API
 * on its own host); and `extensions` (every extension value on every workload).
 */
const fixture = (name: string) => join(repoRoot, 'test', 'infra', 'values', `${name}.yaml`);
export const VALUE_SETS = {
  default: [],
  full: [join(chartDir, 'values-production.yaml')],
  minimal: [fixture('minimal')],
  alternative: [fixture('alternative')],
  extensions: [fixture('extensions')],
} as const;
export type ValueSet = keyof typeof VALUE_SETS;

export const RELEASE = { name: 'hush', namespace: 'hush', revision: 1 };
export const renderings = Object.fromEntries(Object.entries(VALUE_SETS).map(([name, files]) => [name, renderChart([...files])])) as Record<ValueSet, ChartRendering>;

export const ofKind = (objects: Obj[], kind: string) => objects.filter((o) => o['kind'] === kind);
export const matches = (selector: Record<string, string> = {}, labels: Record<string, string> = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v);
/** The component a chart object belongs to (app.kubernetes.io/name): identity, secrets, mailer, migrate, key-rotation. */
export const component = (o: Obj): string => o['metadata']['labels']?.['app.kubernetes.io/name'] as string;
export const podTemplateOf = (w: Obj): Obj => (w['kind'] === 'CronJob' ? w['spec']['jobTemplate']['spec']['template'] : w['spec']['template']);
export const podOf = (w: Obj): Obj => podTemplateOf(w)['spec'];
export const containersOf = (w: Obj): Obj[] => [...(podOf(w)['initContainers'] ?? []), ...podOf(w)['containers']];
export const workloads = (objects: Obj[]) => [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job'), ...ofKind(objects, 'CronJob')];
export const deployment = (objects: Obj[], name: ServiceName): Obj => ofKind(objects, 'Deployment').find((d) => component(d) === name) ?? {};

/** The service whose image a container runs, if it runs one of ours (not a sidecar of the values). */
export const serviceOf = (c: Obj): ServiceName | undefined => SERVICES.find((s) => new RegExp(`(^|/)hush-${s}[:@]`).test(String(c['image'])));
/** The containers the chart itself puts in a workload (those of the values' extraContainers and extraInitContainers left out). */
export const chartContainersOf = (w: Obj): Obj[] => containersOf(w).filter((c) => serviceOf(c) !== undefined);

/** The values key of a workload's component. */
const VALUES_KEY: Record<string, string> = { identity: 'identity', secrets: 'secrets', mailer: 'mailer', migrate: 'migrate', 'key-rotation': 'keyRotation' };
/** A workload's own values (its extension values among them). */
export const workloadValues = (values: Obj, w: Obj): Obj => values[VALUES_KEY[component(w)] ?? ''] ?? {};

/** What a container's process sees: its env names, and the keys of the chart's ConfigMaps it takes whole (not those the values add). */
export function variables(objects: Obj[], c: Obj, extra: Obj = {}): Map<string, string | undefined> {
  const vars = new Map<string, string | undefined>();
  const added = (extra['extraEnvFrom'] ?? []) as Obj[];
  for (const from of (c['envFrom'] ?? []) as Obj[]) {
    if (added.some((a) => JSON.stringify(a) === JSON.stringify(from))) continue;
    const cm = ofKind(objects, 'ConfigMap').find((m) => m['metadata']['name'] === from['configMapRef']?.['name']);
    if (!cm) throw new Error(`${c['name']} takes ${JSON.stringify(from)}, which is no ConfigMap of the chart`);
    for (const [k, v] of Object.entries((cm['data'] ?? {}) as Record<string, unknown>)) vars.set(k, String(v));
  }
  const own = new Set(((extra['extraEnv'] ?? []) as Obj[]).map((e) => e['name']));
  for (const e of (c['env'] ?? []) as Obj[]) if (!own.has(e['name'])) vars.set(e['name'], e['value'] === undefined ? undefined : String(e['value']));
  return vars;
}
