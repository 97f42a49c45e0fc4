import { join } from 'node:path';
import { chartDir, renderChart, type Obj } from './k8s.render.js';
import { CONTAINER_FIELDS, schemaErrors } from './k8s.schema.js';
import { cliCommands, defaultPort, implemented, isReadBy, isTrustedProxyList, managementPort, REQUIRED, SERVICES, type ServiceName } from './services.contract.js';

// infra/helm/hush rendered as `helm template` would, with the chart's defaults and with the
// production-like example, and checked without a cluster. The rendering is ours
// (gotemplate.ts: the subset of Helm's template language the chart keeps to), not helm's.

const renderings = {
  default: renderChart(),
  production: renderChart([join(chartDir, 'values-production.yaml')]),
};
const cases = Object.entries(renderings) as [keyof typeof renderings, (typeof renderings)['default']][];

const ofKind = (objects: Obj[], kind: string) => objects.filter((o) => o['kind'] === kind);
const matches = (selector: Record<string, string> = {}, labels: Record<string, string> = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v);
const component = (o: Obj): ServiceName => o['metadata']['labels']['app.kubernetes.io/name'] as ServiceName;
const podOf = (o: Obj): Obj => o['spec']['template']['spec'];
const containersOf = (o: Obj): Obj[] => [...(podOf(o)['initContainers'] ?? []), ...podOf(o)['containers']];
const workloads = (objects: Obj[]) => [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')];

/** What a container's process sees: its env names, and the keys of the ConfigMaps it takes whole. */
function variables(objects: Obj[], c: Obj): Map<string, string | undefined> {
  const vars = new Map<string, string | undefined>();
  for (const from of c['envFrom'] ?? []) {
    const cm = ofKind(objects, 'ConfigMap').find((m) => m['metadata']['name'] === from['configMapRef']?.['name']);
    expect(cm).toBeDefined();
    for (const [k, v] of Object.entries((cm?.['data'] ?? {}) as Record<string, unknown>)) vars.set(k, String(v));
  }
  for (const e of c['env'] ?? []) vars.set(e['name'], e['value'] === undefined ? undefined : String(e['value']));
  return vars;
}

describe.each(cases)('helm chart infra/helm/hush with %s values', (_name, { objects, notes }) => {
  it('renders only objects that fit the Kubernetes schemas (and the Prometheus Operator CRD)', () => {
    expect(objects.length).toBeGreaterThan(10);
    expect(objects.flatMap(schemaErrors)).toEqual([]);
    // Namespaced by helm at install: the chart sets no namespace of its own, and makes no Namespace or Secret.
    for (const o of objects) expect(o['metadata']['namespace']).toBeUndefined();
    expect(objects.filter((o) => o['kind'] === 'Namespace' || o['kind'] === 'Secret')).toEqual([]);
  });

  it('runs each service as a Deployment whose probes and metrics use its management port', () => {
    const deployments = ofKind(objects, 'Deployment');
    expect(deployments.map(component).sort()).toEqual([...SERVICES].sort());
    for (const d of deployments) {
      const name = component(d);
      const [c, ...others] = podOf(d)['containers'] as Obj[];
      expect(others).toEqual([]);
      const ports = new Map((c?.['ports'] as Obj[]).map((p) => [p['name'], p['containerPort']]));
      expect({ name, management: ports.get('management'), http: ports.get('http') }).toEqual({ name, management: managementPort(name), http: defaultPort(name) });
      expect(c?.['readinessProbe']['httpGet']).toEqual({ path: '/readyz', port: 'management' });
      expect(c?.['livenessProbe']['httpGet']).toEqual({ path: '/healthz', port: 'management' });
      if (c?.['startupProbe']) expect(c['startupProbe']['httpGet']).toEqual({ path: '/healthz', port: 'management' });
      expect(d['spec']['template']['metadata']['annotations']).toMatchObject({ 'prometheus.io/port': String(managementPort(name)), 'prometheus.io/path': '/metrics' });
      expect(matches(d['spec']['selector']['matchLabels'], d['spec']['template']['metadata']['labels'])).toBe(true);
    }
  });

  it('scrapes with ServiceMonitors only through the management port, which no public Service or Ingress routes to', () => {
    for (const sm of ofKind(objects, 'ServiceMonitor')) {
      expect(sm['spec']['endpoints']).toEqual([expect.objectContaining({ port: 'management', path: '/metrics' })]);
      const services = ofKind(objects, 'Service').filter((s) => matches(sm['spec']['selector']['matchLabels'], s['metadata']['labels']));
      expect(services).toHaveLength(1);
      const service = services[0] ?? {};
      const name = component(sm);
      expect(service['spec']['ports']).toEqual([{ name: 'management', port: managementPort(name), targetPort: 'management' }]);
      const d = ofKind(objects, 'Deployment').find((x) => matches(service['spec']['selector'], x['spec']['template']['metadata']['labels']));
      expect(d && component(d)).toBe(name);
    }
    for (const s of ofKind(objects, 'Service').filter((x) => !x['metadata']['labels']['app.kubernetes.io/component'])) {
      expect(s['spec']['ports']).toEqual([expect.objectContaining({ name: 'http', targetPort: 'http' })]);
    }
    for (const ing of ofKind(objects, 'Ingress'))
      for (const rule of ing['spec']['rules'])
        for (const path of rule['http']['paths']) {
          const svc = ofKind(objects, 'Service').find((s) => s['metadata']['name'] === path['backend']['service']['name']);
          expect(svc?.['spec']['ports'].map((p: Obj) => p['name'])).toEqual(['http']);
          expect(path['backend']['service']['port']).toEqual({ name: 'http' });
        }
  });

  it('gives every container, the migration Job included, the restricted security context, resources and only known fields', () => {
    const all = workloads(objects).flatMap((w) => containersOf(w).map((c) => ({ w, c })));
    expect(all.length).toBe(5);
    for (const { w, c } of all) {
      const where = `${w['metadata']['name']}/${c['name']}`;
      expect({ where, unknown: Object.keys(c).filter((k) => !CONTAINER_FIELDS.has(k)) }).toEqual({ where, unknown: [] });
      expect({ where, sc: c['securityContext'] }).toMatchObject({ where, sc: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } } });
      expect({ where, pod: podOf(w)['securityContext'] }).toMatchObject({ where, pod: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } });
      expect(podOf(w)['securityContext']['runAsUser']).toBeGreaterThan(0);
      expect(podOf(w)['automountServiceAccountToken']).toBe(false);
      for (const kind of ['requests', 'limits']) expect({ where, kind, keys: Object.keys(c['resources'][kind]).sort() }).toEqual({ where, kind, keys: ['cpu', 'memory'] });
    }
  });

  it('sets only variables the services read and every required one, with TRUST_PROXY naming proxies', () => {
    for (const w of workloads(objects))
      for (const c of containersOf(w)) {
        const service = SERVICES.find((s) => String(c['image']).includes(`hush-${s}`)) as ServiceName;
        const vars = variables(objects, c);
        expect({ c: c['name'], unknown: [...vars.keys()].filter((v) => !isReadBy(service, v)) }).toEqual({ c: c['name'], unknown: [] });
        for (const key of REQUIRED[service]) expect({ c: c['name'], key, set: vars.has(key) || vars.has(`${key}_FILE`) }).toEqual({ c: c['name'], key, set: true });
        if (vars.has('TRUST_PROXY')) expect(isTrustedProxyList(vars.get('TRUST_PROXY') ?? '')).toBe(true);
      }
    const deployment = (name: string) => ofKind(objects, 'Deployment').find((d) => component(d) === name) ?? {};
    for (const name of ['identity', 'secrets']) expect(variables(objects, podOf(deployment(name))['containers'][0]).get('TRUST_PROXY')).toMatch(/\d/);
  });

  it('reads every <NAME>_FILE from a key of a mounted Secret volume', () => {
    for (const w of workloads(objects)) {
      const pod = podOf(w);
      for (const c of containersOf(w))
        for (const e of (c['env'] ?? []) as Obj[]) {
          if (!String(e['name']).endsWith('_FILE')) continue;
          const path = String(e['value']);
          const mount = (c['volumeMounts'] as Obj[]).find((m) => path.startsWith(`${m['mountPath']}/`));
          const secret = (pod['volumes'] as Obj[]).find((v) => v['name'] === mount?.['name'])?.['secret'];
          const file = path.slice(String(mount?.['mountPath']).length + 1);
          const where = `${c['name']} ${e['name']}`;
          expect({ where, secret: typeof secret?.['secretName'] }).toEqual({ where, secret: 'string' });
          if (secret?.['items']) expect({ where, listed: (secret['items'] as Obj[]).some((i) => i['path'] === file) }).toEqual({ where, listed: true });
        }
    }
  });

  it('has a NetworkPolicy for each service that lets in and out only what it needs', () => {
    const policies = ofKind(objects, 'NetworkPolicy');
    const policyOf = (name: ServiceName) => {
      const d = ofKind(objects, 'Deployment').find((x) => component(x) === name) ?? {};
      const found = policies.filter((p) => matches(p['spec']['podSelector']['matchLabels'], d['spec']['template']['metadata']['labels']));
      expect({ name, policies: found.length }).toEqual({ name, policies: 1 });
      return found[0] ?? {};
    };
    const egressPorts = (p: Obj) => new Set((p['spec']['egress'] as Obj[]).flatMap((r) => (r['ports'] as Obj[]).map((x) => x['port'])));
    const ingressPorts = (p: Obj) => new Set((p['spec']['ingress'] as Obj[]).flatMap((r) => (r['ports'] as Obj[]).map((x) => x['port'])));
    for (const name of SERVICES) {
      const p = policyOf(name);
      expect(p['spec']['policyTypes']).toEqual(['Ingress', 'Egress']);
      expect(egressPorts(p).has(53)).toBe(true);
      // Every ingress rule names where from: nothing is open to every pod of the cluster.
      for (const rule of p['spec']['ingress']) expect(rule['from'].length).toBeGreaterThan(0);
    }
    expect([...ingressPorts(policyOf('identity'))].sort()).toEqual(['http', 'management']);
    expect([...ingressPorts(policyOf('secrets'))].sort()).toEqual(['http', 'management']);
    expect([...ingressPorts(policyOf('mailer'))]).toEqual(['management']);
    // identity reaches the secrets API for credential handover.
    expect(egressPorts(policyOf('identity'))).toEqual(new Set([53, 5432, 6379, 3000]));
    const identityPods = ofKind(objects, 'Deployment').find((x) => component(x) === 'identity')?.['spec']['template']['metadata']['labels'];
    const fromIdentity = (policyOf('secrets')['spec']['ingress'] as Obj[]).filter((r) =>
      (r['from'] as Obj[]).some((f) => !f['namespaceSelector'] && matches(f['podSelector']?.['matchLabels'], identityPods)),
    );
    expect(fromIdentity.flatMap((r) => r['ports'])).toEqual([{ port: 'http', protocol: 'TCP' }]);
    expect(egressPorts(policyOf('secrets'))).toEqual(new Set([53, 5432, 6379, 8080]));
    // The mailer never touches PostgreSQL.
    expect(egressPorts(policyOf('mailer')).has(5432)).toBe(false);
    expect(egressPorts(policyOf('mailer')).has(6379)).toBe(true);
  });

  it('migrates in a pre-install/pre-upgrade hook Job, named per revision: identity bootstrap, then secrets migrate', () => {
    const jobs = ofKind(objects, 'Job');
    expect(jobs).toHaveLength(1);
    const job = jobs[0] ?? {};
    const annotations = job['metadata']['annotations'];
    expect(String(annotations['helm.sh/hook']).split(',').sort()).toEqual(['pre-install', 'pre-upgrade']);
    expect(String(annotations['helm.sh/hook-delete-policy']).split(',')).toContain('before-hook-creation');
    expect(job['metadata']['name']).toBe('hush-migrate-1');
    expect(podOf(job)['restartPolicy']).toBe('Never');
    const steps = containersOf(job).map((c) => `${SERVICES.find((s) => String(c['image']).includes(`hush-${s}`))} ${(c['command'] as string[]).slice(2).join(' ')}`);
    expect(steps).toEqual(['identity bootstrap', 'secrets migrate']);
    for (const c of containersOf(job)) expect((c['command'] as string[]).slice(0, 2)).toEqual(['node', 'dist/src/cli/main.js']);
  });

  it('prints the first admin steps, with commands the identity CLI has', () => {
    expect(notes).toContain('/auth/realms/public');
    expect(notes).toContain('hush-admin');
    expect(notes).toContain('Back up');
    if (!implemented('identity')) return;
    const used = [...notes.matchAll(/cli\/main\.js ([a-z-]+)/g)].map((m) => m[1] ?? '');
    expect(used.length).toBeGreaterThan(0);
    for (const command of used) expect(cliCommands('identity').has(command)).toBe(true);
  });
});

describe('helm chart values', () => {
  const { objects: defaults } = renderings.default;
  const { objects: production, notes: productionNotes } = renderings.production;
  const images = (objects: Obj[]) => workloads(objects).flatMap((w) => containersOf(w).map((c) => String(c['image'])));

  it("uses the chart's appVersion as the tag by default, and the registry and digest when given", () => {
    expect(new Set(images(defaults))).toEqual(new Set(['hush-identity:0.1.0', 'hush-secrets:0.1.0', 'hush-mailer:0.1.0']));
    for (const image of images(production)) expect(image).toMatch(/^registry\.example\.com\/hush\/hush-(identity|secrets|mailer)@sha256:[0-9a-f]{64}$/);
  });

  it('wires hostnames, TLS and the issuer from the values', () => {
    const cm = (objects: Obj[], name: string) => ofKind(objects, 'ConfigMap').find((c) => component(c) === name)?.['data'];
    expect(cm(production, 'identity')['AUTH_URL']).toBe('https://auth.corp.example');
    expect(cm(production, 'secrets')['IDENTITY_ISSUER']).toBe('https://auth.corp.example/auth/realms/public');
    expect(cm(production, 'secrets')['IDENTITY_JWKS_URL']).toBe('http://hush-identity:8080/auth/realms/public/protocol/openid-connect/certs');
    expect(cm(production, 'secrets')['QUEUE_PREFIX']).toBe(cm(production, 'mailer')['QUEUE_PREFIX']);
    // Credential handover: the secrets API through its Service, identity itself through its own port.
    expect(cm(production, 'identity')['SECRETS_URL']).toBe('http://hush-secrets:3000');
    expect(cm(production, 'identity')['INTERNAL_URL']).toBe('http://127.0.0.1:8080');
    const ingress = ofKind(production, 'Ingress')[0] ?? {};
    expect(ingress['spec']['tls']).toEqual([{ secretName: 'hush-tls', hosts: ['auth.corp.example', 'secrets.corp.example'] }]);
    expect(ingress['spec']['ingressClassName']).toBe('nginx');
    const job = ofKind(production, 'Job')[0] ?? {};
    const bootstrap = variables(production, containersOf(job)[0] ?? {});
    expect(bootstrap.get('SECRETS_API_AUDIENCE')).toBe(`${cm(production, 'secrets')['BASE_URL']}/api/v1`);
    expect(productionNotes).toContain('https://secrets.corp.example/api/v1');
  });

  it('scales with an HPA when autoscaling is on, and with replicas when it is off', () => {
    const hpaTargets = (objects: Obj[]) => ofKind(objects, 'HorizontalPodAutoscaler').map((h) => h['spec']['scaleTargetRef']['name'] as string);
    expect(hpaTargets(defaults).sort()).toEqual(['hush-identity', 'hush-mailer', 'hush-secrets']);
    expect(hpaTargets(production).sort()).toEqual(['hush-identity', 'hush-secrets']);
    for (const d of ofKind(defaults, 'Deployment')) expect(d['spec']['replicas']).toBeUndefined();
    expect(ofKind(production, 'Deployment').find((d) => component(d) === 'mailer')?.['spec']['replicas']).toBe(2);
    expect(ofKind(production, 'PodDisruptionBudget')).toHaveLength(3);
  });

  it('spreads pods across zones, and restricts egress to the given CIDRs', () => {
    for (const d of ofKind(production, 'Deployment')) {
      const spread = podOf(d)['topologySpreadConstraints'] as Obj[];
      expect(spread.map((t) => t['topologyKey'])).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
      for (const t of spread) expect(matches(t['labelSelector']['matchLabels'], d['spec']['template']['metadata']['labels'])).toBe(true);
    }
    const cidrs = ofKind(production, 'NetworkPolicy').flatMap((p) =>
      (p['spec']['egress'] as Obj[]).flatMap((r) => (r['to'] ?? []).flatMap((t: Obj) => (t['ipBlock'] ? [t['ipBlock']['cidr']] : []))),
    );
    expect(new Set(cidrs)).toEqual(new Set(['10.10.0.0/24', '10.10.1.0/24', '203.0.113.25/32']));
    expect(ofKind(defaults, 'ServiceMonitor')).toEqual([]);
    expect(ofKind(production, 'ServiceMonitor').map(component).sort()).toEqual([...SERVICES].sort());
  });

  it("takes DATABASE_URL from another Secret's key, and REDIS_URL from a value when it has no password", () => {
    const identity = ofKind(production, 'Deployment').find((d) => component(d) === 'identity') ?? {};
    const c = podOf(identity)['containers'][0];
    expect(variables(production, c).get('DATABASE_URL_FILE')).toBe('/var/run/secrets/hush-database/DATABASE_URL');
    expect(podOf(identity)['volumes']).toContainEqual({
      name: 'identity-database',
      secret: { secretName: 'hush-identity-db-app', defaultMode: 0o440, items: [{ key: 'uri', path: 'DATABASE_URL' }] },
    });
    const job = ofKind(production, 'Job')[0] ?? {};
    expect(containersOf(job).map((x) => variables(production, x).get('DATABASE_URL_FILE'))).toEqual([
      '/var/run/secrets/hush-database/DATABASE_URL',
      '/var/run/secrets/hush-database/DATABASE_URL',
    ]);
    const withUrl = renderChart([], { name: 'hush', namespace: 'hush', revision: 1 }, { externalRedis: { url: 'rediss://redis.internal:6379' } }).objects;
    for (const d of ofKind(withUrl, 'Deployment')) {
      const vars = variables(withUrl, podOf(d)['containers'][0]);
      expect({ d: component(d), url: vars.get('REDIS_URL'), file: vars.has('REDIS_URL_FILE') }).toEqual({ d: component(d), url: 'rediss://redis.internal:6379', file: false });
    }
    expect(() => renderChart([], { name: 'hush', namespace: 'hush', revision: 1 }, { externalRedis: { url: 'redis://:pw@redis:6379' } })).toThrow(/url/);
  });

  it('names the migration Job after the revision, so every upgrade runs a new one', () => {
    const upgrade = renderChart([], { name: 'hush', namespace: 'hush', revision: 7 });
    expect(ofKind(upgrade.objects, 'Job').map((j) => j['metadata']['name'])).toEqual(['hush-migrate-7']);
  });

  it('refuses values that values.schema.json rejects: a typo, a bare true trustProxy, a secret in config, a short digest', () => {
    const release = { name: 'hush', namespace: 'hush', revision: 1 };
    expect(() => renderChart([], release, { identity: { autoscalling: { enabled: false } } })).toThrow(/autoscalling/);
    expect(() => renderChart([], release, { trustProxy: 'true' })).toThrow(/trustProxy/);
    expect(() => renderChart([], release, { trustProxy: '' })).toThrow(/trustProxy/);
    expect(() => renderChart([], release, { secrets: { config: { MASTER_KEY: 'x' } } })).toThrow(/config/);
    expect(() => renderChart([], release, { mailer: { image: { digest: 'sha256:abc' } } })).toThrow(/digest/);
  });

  it('has a schema validator that does reject a broken object', () => {
    const broken = structuredClone(ofKind(defaults, 'Deployment')[0] ?? {});
    broken['spec']['template']['spec']['containers'][0]['ports'][0]['containerPort'] = 'eighty';
    delete broken['spec']['selector'];
    const errors = schemaErrors(broken);
    expect(errors.join('\n')).toMatch(/containerPort|selector/);
  });
});
