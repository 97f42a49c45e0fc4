import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { renderKustomization } from './k8s.render.js';
import { CONTAINER_FIELDS, schemaErrors } from './k8s.schema.js';
import {
  cliCommands,
  defaultPort,
  implemented,
  isTrustedProxyList,
  managementPort,
  isReadBy,
  looksLikeKey,
  repoRoot,
  REQUIRED,
  SERVICES,
  sourceOf,
  type ServiceName,
} from './services.contract.js';

// The Kubernetes manifests in infra/k8s, checked without a cluster: every document parses, has a
// known kind and apiVersion, and fits the services (probes, ports, variables) and each other
// (references, selectors, scale targets). kubectl is not on every machine, and `apply
// --dry-run=client` needs an API server anyway.

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are untyped YAML; each check names the fields it reads */
type Obj = Record<string, any>;

const dir = join(repoRoot, 'infra', 'k8s');
// The base, the migration Job's own kustomization (migrate/), the rewrap Job's (rewrap/), and the optional components.
const COMPONENTS = ['network-policy', 'ingress', 'admin-ingress', 'service-monitor', 'tracing'];
const files = ['', 'migrate/', 'rewrap/', ...COMPONENTS.map((c) => `components/${c}/`)].flatMap((sub) =>
  readdirSync(join(dir, sub))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => `${sub}${f}`),
);
// Kubernetes reads YAML 1.1 (e.g. `0440` is octal), so parse it that way.
const docs = files.flatMap((file) =>
  parseAllDocuments(readFileSync(join(dir, file), 'utf8'), { version: '1.1' }).map((doc, i) => {
    expect(doc.errors).toEqual([]);
    return { file, index: i, obj: doc.toJS() as Obj };
  }),
);
const objects = docs.filter((d) => d.obj && d.obj['kind'] !== 'Kustomization' && d.obj['kind'] !== 'Component');
const ofKind = (kind: string) => objects.filter((d) => d.obj['kind'] === kind).map((d) => d.obj);
const byName = (kind: string, name: string) => ofKind(kind).find((o) => o['metadata']?.['name'] === name);

const API_VERSIONS: Record<string, string> = {
  Namespace: 'v1',
  ConfigMap: 'v1',
  Secret: 'v1',
  Service: 'v1',
  ServiceAccount: 'v1',
  Deployment: 'apps/v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
  PodDisruptionBudget: 'policy/v1',
  NetworkPolicy: 'networking.k8s.io/v1',
  Ingress: 'networking.k8s.io/v1',
  ServiceMonitor: 'monitoring.coreos.com/v1',
};

const serviceOfImage = (image: string): ServiceName | undefined => SERVICES.find((s) => new RegExp(`^hush-${s}:[\\w.-]+$`).test(image));
const matches = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);

/** Every container of every workload, with its pod spec and workload. */
const workloads = [...ofKind('Deployment'), ...ofKind('Job'), ...ofKind('CronJob')];
const podOf = (w: Obj): Obj => (w['kind'] === 'CronJob' ? w['spec']['jobTemplate']['spec']['template']['spec'] : w['spec']['template']['spec']);
const containers = workloads.flatMap((w) => {
  const pod = podOf(w);
  return [...(pod['initContainers'] ?? []), ...(pod['containers'] ?? [])].map((c: Obj) => ({ workload: w, pod, c, service: serviceOfImage(c['image']) }));
});

/** The variables a container sees: its env, and the keys of the ConfigMaps and Secrets it takes whole. */
function variables(c: Obj): Map<string, string | undefined> {
  const vars = new Map<string, string | undefined>();
  for (const from of c['envFrom'] ?? []) {
    const source = from['configMapRef'] ? byName('ConfigMap', from['configMapRef']['name']) : byName('Secret', from['secretRef']?.['name']);
    for (const [k, v] of Object.entries({ ...(source?.['data'] ?? {}), ...(source?.['stringData'] ?? {}) })) vars.set(k, String(v));
  }
  for (const e of c['env'] ?? []) vars.set(e['name'], e['value'] === undefined ? undefined : String(e['value']));
  return vars;
}
const containerVar = (deployment: string, name: string) => {
  const entry = containers.find((x) => x.workload['kind'] === 'Deployment' && x.workload['metadata']['name'] === deployment);
  return entry ? variables(entry.c).get(name) : undefined;
};

describe('infra/k8s', () => {
  it('holds only documents of known kinds and API versions, named and namespaced', () => {
    expect(objects.length).toBeGreaterThan(0);
    for (const { file, index, obj } of objects) {
      const where = `${file}#${index}`;
      expect({ where, apiVersion: obj['apiVersion'] }).toEqual({ where, apiVersion: API_VERSIONS[obj['kind']] ?? `unknown kind ${obj['kind']}` });
      expect(obj['metadata']?.['name']).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      if (obj['kind'] !== 'Namespace') expect({ where, namespace: obj['metadata']['namespace'] }).toEqual({ where, namespace: 'hush' });
    }
    expect(new Set(ofKind('Deployment').map((d) => d['metadata']['name']))).toEqual(new Set(SERVICES));
  });

  it('applies the workloads with kustomize, and neither the Namespace nor the placeholder Secrets', () => {
    const kustomization = docs.find((d) => d.file === 'kustomization.yaml')?.obj ?? {};
    expect(kustomization['kind']).toBe('Kustomization');
    const outside = ['kustomization.yaml', 'secrets.example.yaml', 'namespace.yaml'];
    expect([...(kustomization['resources'] as string[])].sort()).toEqual(files.filter((f) => !f.includes('/') && !outside.includes(f)).sort());
    const migrate = docs.find((d) => d.file === 'migrate/kustomization.yaml')?.obj ?? {};
    expect(migrate['resources']).toEqual(['job.yaml']);
  });

  it('sets TRUST_PROXY to proxy addresses or a hop count, never a bare true', () => {
    for (const name of ['identity', 'secrets'] as const) {
      const value = containerVar(name, 'TRUST_PROXY') ?? '';
      expect({ name, value, ok: isTrustedProxyList(value) }).toEqual({ name, value, ok: true });
    }
  });

  it('ships placeholders only: no real key in any Secret', () => {
    const secrets = ofKind('Secret');
    expect(secrets.length).toBeGreaterThan(0);
    for (const s of secrets) {
      expect(s['data']).toBeUndefined();
      for (const [key, value] of Object.entries(s['stringData'] ?? {})) {
        expect({ secret: s['metadata']['name'], key, placeholder: String(value).includes('REPLACE') && !looksLikeKey(String(value)) }).toEqual({
          secret: s['metadata']['name'],
          key,
          placeholder: true,
        });
      }
    }
  });

  it.each(SERVICES)('runs %s as a Deployment with probes on its port, resources, and no root, privileges or in-pod state', (name) => {
    const d = byName('Deployment', name) ?? {};
    const spec = d['spec'];
    const pod = spec['template']['spec'];
    expect(spec['replicas']).toBeUndefined(); // the HPA owns the count
    expect(matches(spec['selector']['matchLabels'], spec['template']['metadata']['labels'])).toBe(true);
    expect(pod['securityContext']).toMatchObject({ runAsNonRoot: true });
    expect(pod['securityContext']['runAsUser']).toBeGreaterThan(0);
    expect(pod['automountServiceAccountToken']).toBe(false);
    for (const v of pod['volumes'] ?? []) expect(Object.keys(v).filter((k) => k !== 'name')).toEqual([expect.stringMatching(/^(secret|configMap|emptyDir)$/)]);
    expect(pod['containers']).toHaveLength(1);
    const c = pod['containers'][0];
    expect(serviceOfImage(c['image'])).toBe(name);
    const ports = c['ports'] as Obj[];
    const http = ports.find((p) => p['name'] === 'http');
    expect(http?.['containerPort']).toBe(defaultPort(name));
    // Health and metrics on the management port, never the public one.
    const management = ports.find((p) => p['name'] === 'management');
    expect(management?.['containerPort']).toBe(managementPort(name));
    expect(c['readinessProbe']['httpGet']).toEqual({ path: '/readyz', port: 'management' });
    expect(c['livenessProbe']['httpGet']).toEqual({ path: '/healthz', port: 'management' });
    if (c['startupProbe']) expect(c['startupProbe']['httpGet']).toEqual({ path: '/healthz', port: 'management' });
    expect(d['spec']['template']['metadata']['annotations']).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(managementPort(name)),
      'prometheus.io/path': '/metrics',
    });
    for (const kind of ['requests', 'limits']) expect(Object.keys(c['resources'][kind]).sort()).toEqual(['cpu', 'memory']);
    expect(pod['terminationGracePeriodSeconds']).toBeGreaterThanOrEqual(30);
  });

  it('gives every container only fields Kubernetes knows, and a locked-down security context', () => {
    for (const { c, pod } of containers) {
      expect(Object.keys(c).filter((k) => !CONTAINER_FIELDS.has(k))).toEqual([]);
      expect(c['securityContext']).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(pod['securityContext']).toMatchObject({ runAsNonRoot: true });
    }
  });

  it('sets only variables the services read, and every required one', () => {
    for (const { c, service } of containers) {
      expect({ container: c['name'], service }).toEqual({ container: c['name'], service: expect.any(String) });
      if (!service) continue;
      const vars = variables(c);
      expect({ container: c['name'], unknown: [...vars.keys()].filter((v) => !isReadBy(service, v)) }).toEqual({ container: c['name'], unknown: [] });
      for (const key of REQUIRED[service]) expect({ container: c['name'], key, set: vars.has(key) || vars.has(`${key}_FILE`) }).toEqual({ container: c['name'], key, set: true });
    }
  });

  it('references only ConfigMaps and Secrets that exist, and reads each <NAME>_FILE from a mounted Secret key', () => {
    for (const { c, pod } of containers) {
      for (const from of c['envFrom'] ?? []) {
        if (from['configMapRef']) expect(byName('ConfigMap', from['configMapRef']['name'])).toBeDefined();
        if (from['secretRef']) expect(byName('Secret', from['secretRef']['name'])).toBeDefined();
      }
      for (const e of c['env'] ?? []) {
        const ref = e['valueFrom']?.['secretKeyRef'] ?? e['valueFrom']?.['configMapKeyRef'];
        if (ref)
          expect(
            byName(e['valueFrom']['secretKeyRef'] ? 'Secret' : 'ConfigMap', ref['name'])?.[e['valueFrom']['secretKeyRef'] ? 'stringData' : 'data']?.[ref['key']],
          ).toBeDefined();
        if (!String(e['name']).endsWith('_FILE')) continue;
        const path = String(e['value']);
        const mount = (c['volumeMounts'] ?? []).find((m: Obj) => path.startsWith(`${m['mountPath']}/`));
        const volume = (pod['volumes'] ?? []).find((v: Obj) => v['name'] === mount?.['name']);
        const secret = byName('Secret', volume?.['secret']?.['secretName']);
        const key = path.slice(String(mount?.['mountPath']).length + 1);
        expect({ env: e['name'], key, found: secret?.['stringData']?.[key] !== undefined }).toEqual({ env: e['name'], key, found: true });
        // Files of a Secret volume belong to root: a mode without "other" read needs fsGroup.
        if (((volume?.['secret']?.['defaultMode'] ?? 0o644) & 0o004) === 0) expect(pod['securityContext']['fsGroup']).toBe(pod['securityContext']['runAsGroup']);
      }
    }
  });

  it('autoscales and protects every Deployment (autoscaling/v2 HPA, PodDisruptionBudget)', () => {
    for (const d of ofKind('Deployment')) {
      const name = d['metadata']['name'];
      const labels = d['spec']['template']['metadata']['labels'];
      const hpas = ofKind('HorizontalPodAutoscaler').filter((h) => h['spec']['scaleTargetRef']['kind'] === 'Deployment' && h['spec']['scaleTargetRef']['name'] === name);
      expect({ name, hpas: hpas.length }).toEqual({ name, hpas: 1 });
      const hpa = hpas[0] ?? {};
      expect(hpa['spec']['scaleTargetRef']['apiVersion']).toBe('apps/v1');
      expect(hpa['spec']['minReplicas']).toBeGreaterThanOrEqual(1);
      expect(hpa['spec']['maxReplicas']).toBeGreaterThanOrEqual(hpa['spec']['minReplicas']);
      expect(hpa['spec']['metrics'].length).toBeGreaterThan(0);
      const pdbs = ofKind('PodDisruptionBudget').filter((p) => matches(p['spec']['selector']['matchLabels'], labels));
      expect({ name, pdbs: pdbs.length }).toEqual({ name, pdbs: 1 });
    }
    for (const pdb of ofKind('PodDisruptionBudget')) {
      const targets = ofKind('Deployment').filter((d) => matches(pdb['spec']['selector']['matchLabels'], d['spec']['template']['metadata']['labels']));
      expect(targets).toHaveLength(1);
      // maxUnavailable keeps a single-replica Deployment drainable; minAvailable: 1 would block drains.
      expect(pdb['spec']['maxUnavailable']).toBe(1);
    }
  });

  it('gives the mail queue’s producers (secrets, identity) and the mailer MAIL_SEALING_KEY as a file from their Secrets, and no other container', () => {
    for (const { c, workload } of containers) {
      const name = workload['metadata']['name'];
      const reads = variables(c).has('MAIL_SEALING_KEY_FILE');
      const wanted = workload['kind'] === 'Deployment' && ['secrets', 'identity', 'mailer'].includes(name);
      expect({ container: c['name'], reads }).toEqual({ container: c['name'], reads: wanted });
    }
  });

  it('routes each Service to a Deployment port that exists', () => {
    for (const s of ofKind('Service')) {
      const d = ofKind('Deployment').find((x) => matches(s['spec']['selector'], x['spec']['template']['metadata']['labels']));
      expect(d).toBeDefined();
      const ports = d?.['spec']['template']['spec']['containers'][0]['ports'] as Obj[];
      for (const p of s['spec']['ports']) expect(ports.some((cp) => cp['name'] === p['targetPort'] || cp['containerPort'] === p['targetPort'])).toBe(true);
    }
  });

  it('names the migration Job after the release its images carry, so each release is a new Job', () => {
    const base = docs.find((d) => d.file === 'kustomization.yaml')?.obj ?? {};
    const migrate = docs.find((d) => d.file === 'migrate/kustomization.yaml')?.obj ?? {};
    const tags = (k: Obj) => new Map((k['images'] as Obj[]).map((i) => [i['name'], `${i['newName']}:${i['newTag']}`]));
    const tag = (migrate['images'] as Obj[])[0]?.['newTag'] as string;
    expect(migrate['nameSuffix']).toBe(`-${tag.replaceAll('.', '-')}`);
    for (const [name, image] of tags(migrate)) expect({ name, image }).toEqual({ name, image: tags(base).get(name) });
    expect(ofKind('Job')[0]?.['spec']['ttlSecondsAfterFinished']).toBeUndefined();
  });

  it('migrates with a Job: identity bootstrap, then secrets migrate, through CLI commands that exist', () => {
    // The rewrap Job (rewrap/) runs during a key rotation only.
    const jobs = ofKind('Job').filter((j) => j['metadata']['name'] === 'hush-migrate');
    expect(jobs).toHaveLength(1);
    const pod = jobs[0]?.['spec']['template']['spec'];
    expect(['OnFailure', 'Never']).toContain(pod['restartPolicy']);
    const steps = [...(pod['initContainers'] ?? []), ...pod['containers']].map((c: Obj) => ({ service: serviceOfImage(c['image']), command: c['command'] as string[] }));
    expect(steps.map((s) => `${s.service} ${s.command.slice(2).join(' ')}`)).toEqual(['identity bootstrap', 'secrets migrate']);
    for (const { service, command } of steps) {
      if (!service || !implemented(service)) continue;
      expect(command.slice(0, 2)).toEqual(['node', 'dist/src/cli/main.js']);
      expect(existsSync(sourceOf(service, command[1] ?? ''))).toBe(true);
      expect(cliCommands(service).has(command[2] ?? '')).toBe(true);
    }
  });

  it('wires secrets to identity: public issuer, in-cluster JWKS, registered audience, one queue prefix', () => {
    const job = ofKind('Job')[0]?.['spec']['template']['spec'];
    const bootstrap = variables(job['initContainers'][0]);
    expect(containerVar('secrets', 'IDENTITY_ISSUER')).toBe(`${containerVar('identity', 'AUTH_URL')}/auth/realms/public`);
    expect(bootstrap.get('SECRETS_API_AUDIENCE')).toBe(containerVar('secrets', 'API_AUDIENCE') ?? `${containerVar('secrets', 'BASE_URL')}/api/v1`);
    const identityService = byName('Service', 'identity');
    expect(containerVar('secrets', 'IDENTITY_JWKS_URL')).toBe(`http://identity:${identityService?.['spec']['ports'][0]['port']}/auth/realms/public/protocol/openid-connect/certs`);
    expect(containerVar('secrets', 'QUEUE_PREFIX')).toBe(containerVar('mailer', 'QUEUE_PREFIX'));
  });

  it("wires the web app: bootstrap registers its client for secrets' BASE_URL with the secret secrets signs in with, reached in the cluster", () => {
    const job = ofKind('Job')[0]?.['spec']['template']['spec'];
    const bootstrap = variables(job['initContainers'][0]);
    expect(bootstrap.get('SECRETS_BASE_URL')).toBe(containerVar('secrets', 'BASE_URL'));
    const secretKey = (c: Obj, pod: Obj, name: string) => {
      const path = String(variables(c).get(`${name}_FILE`));
      const mount = (c['volumeMounts'] as Obj[]).find((m) => path.startsWith(`${m['mountPath']}/`));
      const volume = (pod['volumes'] as Obj[]).find((v) => v['name'] === mount?.['name']);
      return `${volume?.['secret']?.['secretName']}/${path.slice(String(mount?.['mountPath']).length + 1)}`;
    };
    const secretsPod = byName('Deployment', 'secrets')?.['spec']['template']['spec'];
    expect(secretKey(job['initContainers'][0], job, 'SECRETS_WEB_CLIENT_SECRET')).toBe('identity-keys/SECRETS_WEB_CLIENT_SECRET');
    expect(secretKey(secretsPod['containers'][0], secretsPod, 'WEB_CLIENT_SECRET')).toBe('secrets-keys/WEB_CLIENT_SECRET');
    const identityService = byName('Service', 'identity');
    expect(containerVar('secrets', 'IDENTITY_INTERNAL_URL')).toBe(`http://identity:${identityService?.['spec']['ports'][0]['port']}`);
  });
});

describe('signing-key rotation in infra/k8s', () => {
  it("runs identity's `keys rotate` monthly, one run at a time, with identity's image, settings and key Secret", () => {
    const cronJobs = ofKind('CronJob');
    expect(cronJobs.map((c) => c['metadata']['name'])).toEqual(['key-rotation']);
    const cron = cronJobs[0] ?? {};
    expect(cron['spec']['concurrencyPolicy']).toBe('Forbid');
    expect(String(cron['spec']['schedule']).split(' ')).toHaveLength(5);
    const [c, ...others] = podOf(cron)['containers'] as Obj[];
    expect(others).toEqual([]);
    expect(c?.['command'].slice(0, 4)).toEqual(['node', 'dist/src/cli/main.js', 'keys', 'rotate']);
    if (implemented('identity')) expect(cliCommands('identity').has('keys')).toBe(true);
    const identity = byName('Deployment', 'identity')?.['spec']['template']['spec']['containers'][0];
    expect(c?.['image']).toBe(identity['image']);
    expect(c?.['envFrom']).toEqual(identity['envFrom']);
    expect(podOf(cron)['volumes']).toContainEqual({ name: 'keys', secret: { secretName: 'identity-keys', defaultMode: 0o440 } });
  });
});

describe('credential handover in infra/k8s', () => {
  const fileOf = (c: Obj, pod: Obj, name: string) => {
    const path = String(variables(c).get(`${name}_FILE`));
    const mount = (c['volumeMounts'] as Obj[]).find((m) => path.startsWith(`${m['mountPath']}/`));
    const volume = (pod['volumes'] as Obj[]).find((v) => v['name'] === mount?.['name']);
    return `${volume?.['secret']?.['secretName']}/${path.slice(String(mount?.['mountPath']).length + 1)}`;
  };

  it('has identity reach the secrets Service in the cluster and itself in its pod, with the client secret bootstrap registers', () => {
    const secretsService = byName('Service', 'secrets');
    expect(containerVar('identity', 'SECRETS_URL')).toBe(`http://secrets:${secretsService?.['spec']['ports'][0]['port']}`);
    const identityPod = byName('Deployment', 'identity')?.['spec']['template']['spec'];
    const port = (identityPod['containers'][0]['ports'] as Obj[]).find((p) => p['name'] === 'http')?.['containerPort'];
    expect(containerVar('identity', 'INTERNAL_URL')).toBe(`http://127.0.0.1:${port}`);
    const job = ofKind('Job')[0]?.['spec']['template']['spec'];
    expect(fileOf(identityPod['containers'][0], identityPod, 'HANDOVER_CLIENT_SECRET')).toBe('identity-keys/HANDOVER_CLIENT_SECRET');
    expect(fileOf(job['initContainers'][0], job, 'HANDOVER_CLIENT_SECRET')).toBe('identity-keys/HANDOVER_CLIENT_SECRET');
  });

  it('lets identity through to the secrets API in the NetworkPolicies component, and no one else from inside', () => {
    const policies = renderKustomization(join(dir, 'components', 'network-policy'));
    const policy = (name: string) => policies.find((p) => p['metadata']['name'] === name)?.['spec'];
    const toSecrets = (policy('identity')['egress'] as Obj[]).filter((r) =>
      (r['to'] ?? []).some((t: Obj) => t['podSelector']?.['matchLabels']?.['app.kubernetes.io/name'] === 'secrets'),
    );
    expect(toSecrets.flatMap((r) => r['ports'])).toEqual([{ port: 3000, protocol: 'TCP' }]);
    const fromPods = (policy('secrets')['ingress'] as Obj[]).flatMap((r) =>
      (r['from'] as Obj[]).filter((f) => f['podSelector'] && !f['namespaceSelector']).map((f) => ({ ports: r['ports'], from: f['podSelector'] })),
    );
    expect(fromPods).toEqual([{ ports: [{ port: 'http', protocol: 'TCP' }], from: { matchLabels: { 'app.kubernetes.io/name': 'identity' } } }]);
  });
});

describe('kubectl apply -k / delete -k infra/k8s (the objects kustomize renders)', () => {
  const rendered = renderKustomization();
  const migration = renderKustomization(join(dir, 'migrate'));

  it('renders only objects that fit the Kubernetes schemas', () => {
    expect([...rendered, ...migration].flatMap(schemaErrors)).toEqual([]);
  });

  it('would delete neither the Namespace nor any Secret: the key Secrets are created outside and only referenced', () => {
    const kinds = new Set(rendered.map((o) => o['kind']));
    expect(kinds.has('Namespace')).toBe(false);
    expect(kinds.has('Secret')).toBe(false);
    const referenced = new Set(
      [...rendered, ...migration]
        .filter((o) => ['Deployment', 'Job', 'CronJob'].includes(o['kind']))
        .flatMap((o) => ((podOf(o)['volumes'] ?? []) as Obj[]).flatMap((v) => (v['secret'] ? [v['secret']['secretName']] : []))),
    );
    expect([...referenced].sort()).toEqual(
      ofKind('Secret')
        .map((s) => s['metadata']['name'])
        .sort(),
    );
    for (const name of referenced) expect(rendered.some((o) => o['metadata']['name'] === name)).toBe(false);
  });

  it('keeps the migration Job out of the base, in its own kustomization named for the release', () => {
    expect(rendered.some((o) => o['kind'] === 'Job')).toBe(false);
    expect(migration.map((o) => `${o['kind']}/${o['metadata']['name']}`)).toEqual(['Job/hush-migrate-0-1-0']);
  });
});

describe('the optional kustomize components (NetworkPolicies, Ingress with TLS, admin Ingress, ServiceMonitors, tracing)', () => {
  const base = renderKustomization();
  const parts = Object.fromEntries(COMPONENTS.map((c) => [c, renderKustomization(join(dir, 'components', c))]));
  const all = [...base, ...Object.values(parts).flat()];
  const deployments = base.filter((o) => o['kind'] === 'Deployment');
  const podLabels = (d: Obj) => d['spec']['template']['metadata']['labels'] as Record<string, string>;
  const ports = (rules: Obj[]) => new Set(rules.flatMap((r) => (r['ports'] as Obj[]).map((p) => p['port'])));

  it('render objects that fit the Kubernetes schemas, in the namespace, and neither a Namespace nor a Secret', () => {
    expect(all.flatMap(schemaErrors)).toEqual([]);
    for (const o of Object.values(parts).flat()) {
      expect(o['metadata']['namespace']).toBe('hush');
      expect(['Namespace', 'Secret']).not.toContain(o['kind']);
    }
  });

  it('give each Deployment one NetworkPolicy, letting in its own ports only, from named peers', () => {
    const policies = parts['network-policy'] ?? [];
    for (const d of deployments) {
      const name = d['metadata']['name'];
      const mine = policies.filter((p) => matches(p['spec']['podSelector']['matchLabels'], podLabels(d)));
      expect({ name, policies: mine.length }).toEqual({ name, policies: 1 });
      const policy = mine[0] ?? {};
      expect(policy['spec']['policyTypes']).toEqual(['Ingress', 'Egress']);
      const named = new Set((d['spec']['template']['spec']['containers'][0]['ports'] as Obj[]).map((p) => p['name']));
      for (const port of ports(policy['spec']['ingress'])) expect(named.has(port)).toBe(true);
      for (const rule of policy['spec']['ingress']) expect(rule['from'].length).toBeGreaterThan(0);
      expect(ports(policy['spec']['egress']).has(53)).toBe(true);
    }
  });

  it('route the Ingress to public ports only, and scrape through the management port only', () => {
    for (const ing of [...(parts['ingress'] ?? []), ...(parts['admin-ingress'] ?? [])])
      for (const rule of ing['spec']['rules']) for (const path of rule['http']['paths']) expect(path['backend']['service']['port']).toEqual({ name: 'http' });
    const monitors = (parts['service-monitor'] ?? []).filter((o) => o['kind'] === 'ServiceMonitor');
    expect(monitors.map((m) => m['metadata']['name']).sort()).toEqual([...SERVICES].sort());
    for (const m of monitors) {
      expect(m['spec']['endpoints']).toEqual([expect.objectContaining({ port: 'management', path: '/metrics' })]);
      const services = all.filter((o) => o['kind'] === 'Service' && matches(m['spec']['selector']['matchLabels'], o['metadata']['labels']));
      expect(services).toHaveLength(1);
      expect(services[0]?.['spec']['ports']).toEqual([{ name: 'management', port: managementPort(m['metadata']['name']), targetPort: 'management' }]);
    }
  });

  it('turn tracing on for each service under its own name (tracing), and let each reach the collector on its port (network-policy); off without them', () => {
    const traced = renderKustomization(dir, [join(dir, 'components', 'tracing')]);
    const configOf = (objects: Obj[], d: Obj): Record<string, string> => {
      const name = d['spec']['template']['spec']['containers'][0]['envFrom'][0]['configMapRef']['name'];
      return objects.find((o) => o['kind'] === 'ConfigMap' && o['metadata']['name'] === name)?.['data'] ?? {};
    };
    for (const d of traced.filter((o) => o['kind'] === 'Deployment')) {
      const name = d['metadata']['name'];
      const config = configOf(traced, d);
      expect({ name, service: config['OTEL_SERVICE_NAME'], sampler: config['OTEL_TRACES_SAMPLER'] }).toEqual({ name, service: `hush-${name}`, sampler: 'parentbased_always_on' });
      const endpoint = new URL(config['OTEL_EXPORTER_OTLP_ENDPOINT'] ?? '');
      const [policy] = (parts['network-policy'] ?? []).filter((p) => matches(p['spec']['podSelector']['matchLabels'], podLabels(d)));
      expect({ name, collector: ports(policy?.['spec']['egress'] ?? []).has(Number(endpoint.port)) }).toEqual({ name, collector: true });
      // The rest of the service's settings stay as the base has them.
      const base = configOf(renderKustomization(), d);
      expect(Object.fromEntries(Object.entries(config).filter(([k]) => !k.startsWith('OTEL_')))).toEqual(base);
      expect(Object.keys(base).filter((k) => k.startsWith('OTEL_'))).toEqual([]);
    }
  });

  it("keep identity's admin paths off the public Ingress, on the admin Ingress of another class", () => {
    const paths = (ing: Obj) => (ing['spec']['rules'] as Obj[]).flatMap((r) => (r['http']['paths'] as Obj[]).map((p) => `${r['host']}${p['path']}`));
    const [publicIngress] = parts['ingress'] ?? [];
    const [admin] = parts['admin-ingress'] ?? [];
    expect(paths(publicIngress ?? {}).sort()).toEqual(['auth.example.com/auth/realms', 'secrets.example.com/']);
    expect(paths(admin ?? {}).sort()).toEqual(['auth.example.com/auth/admin', 'auth.example.com/auth/realms']);
    expect(admin?.['spec']['ingressClassName']).not.toBe(publicIngress?.['spec']['ingressClassName']);
  });
});
