import { isDeepStrictEqual } from 'node:util';
import { renderChart, type Obj } from './k8s.render.js';
import { CONTAINER_FIELDS, schemaErrors } from './k8s.schema.js';
import {
  chartContainersOf,
  component,
  containersOf,
  deployment,
  matches,
  ofKind,
  podOf,
  podTemplateOf,
  RELEASE,
  renderings,
  serviceOf,
  variables,
  workloads,
  workloadValues,
  type ValueSet,
} from './chart.objects.js';
import { cliCommands, defaultPort, implemented, isReadBy, isTrustedProxyList, managementPort, REQUIRED, SERVICES, type ServiceName } from './services.contract.js';

// infra/helm/hush rendered as `helm template` would, with five sets of values (chart.objects.ts),
// and checked without a cluster. The rendering is ours (gotemplate.ts: the subset of Helm's
// template language the chart keeps to), not helm's.

const cases = Object.entries(renderings) as [ValueSet, (typeof renderings)[ValueSet]][];

describe.each(cases)('helm chart infra/helm/hush with %s values', (_name, { objects, notes, values }) => {
  it('renders only objects that fit the Kubernetes schemas (and the Prometheus Operator CRDs), each name once per kind', () => {
    expect(objects.length).toBeGreaterThan(10);
    expect(objects.flatMap(schemaErrors)).toEqual([]);
    // Namespaced by helm at install: the chart sets no namespace of its own, and makes no Namespace or Secret.
    for (const o of objects) expect(o['metadata']['namespace']).toBeUndefined();
    expect(objects.filter((o) => o['kind'] === 'Namespace' || o['kind'] === 'Secret')).toEqual([]);
    const names = objects.map((o) => `${o['kind']}/${o['metadata']['name']}`);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('runs each service as a Deployment whose probes and metrics use its management port', () => {
    const deployments = ofKind(objects, 'Deployment');
    expect(deployments.map(component).sort()).toEqual([...SERVICES].sort());
    for (const d of deployments) {
      const name = component(d) as ServiceName;
      const [c, ...others] = chartContainersOf(d);
      expect({ name, container: c?.['name'], others }).toEqual({ name, container: name, others: [] });
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
      const name = component(sm) as ServiceName;
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

  it('gives every container, the Jobs’ and the values’ included, the restricted security context, resources and only known fields', () => {
    const all = workloads(objects).flatMap((w) => containersOf(w).map((c) => ({ w, c })));
    const own = workloads(objects).flatMap((w) => chartContainersOf(w).map((c) => c['name'] as string));
    expect(own.sort()).toEqual(['identity', 'identity-bootstrap', 'mailer', 'secrets', 'secrets-migrate', ...(values['keyRotation']['enabled'] ? ['keys-rotate'] : [])].sort());
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

  it('sets only variables the services read and every required one, with TRUST_PROXY naming proxies (the values’ own variables aside)', () => {
    for (const w of workloads(objects))
      for (const c of chartContainersOf(w)) {
        const service = serviceOf(c) as ServiceName;
        const vars = variables(objects, c, workloadValues(values, w));
        expect({ c: c['name'], unknown: [...vars.keys()].filter((v) => !isReadBy(service, v)) }).toEqual({ c: c['name'], unknown: [] });
        for (const key of REQUIRED[service]) expect({ c: c['name'], key, set: vars.has(key) || vars.has(`${key}_FILE`) }).toEqual({ c: c['name'], key, set: true });
        if (vars.has('TRUST_PROXY')) expect(isTrustedProxyList(vars.get('TRUST_PROXY') ?? '')).toBe(true);
      }
    for (const name of ['identity', 'secrets'] as const) {
      const d = deployment(objects, name);
      expect(variables(objects, podOf(d)['containers'][0], workloadValues(values, d)).get('TRUST_PROXY')).toMatch(/\d/);
    }
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

  it('has a NetworkPolicy for each workload that lets in and out only what it needs, plus the rules the values add', () => {
    const np = values['networkPolicy'] as Obj;
    const policies = ofKind(objects, 'NetworkPolicy');
    if (!np['enabled']) return expect(policies).toEqual([]);
    const policyOf = (w: Obj) => {
      const found = policies.filter((p) => matches(p['spec']['podSelector']['matchLabels'], podTemplateOf(w)['metadata']['labels']));
      expect({ w: component(w), policies: found.length }).toEqual({ w: component(w), policies: 1 });
      return found[0] ?? {};
    };
    // The chart's own rules: the policy's, less those the values add (which are there as given).
    const own = (p: Obj, direction: 'ingress' | 'egress', key: string) => {
      const added = (np[direction === 'ingress' ? 'extraIngress' : 'extraEgress'][key] ?? []) as Obj[];
      const rules = (p['spec'][direction] ?? []) as Obj[];
      for (const rule of added) expect(rules).toContainEqual(rule);
      return rules.filter((r) => !added.some((a) => isDeepStrictEqual(a, r)));
    };
    const ports = (rules: Obj[]) => new Set(rules.flatMap((r) => ((r['ports'] ?? []) as Obj[]).map((x) => x['port'])));
    const scraped = (np['prometheus'] as Obj[]).length > 0;
    // With traces on and the collector's peers given, the three services reach it on its port.
    const tracing = values['tracing'] as Obj;
    const traced: number[] = tracing['endpoint'] && (tracing['collector'] as Obj[]).length > 0 ? [tracing['port'] as number] : [];
    const expected: Record<string, { ingress: string[]; egress: number[] }> = {
      identity: { ingress: ['http', ...(scraped ? ['management'] : [])], egress: [53, 5432, 6379, 3000, ...traced] },
      secrets: { ingress: ['http', ...(scraped ? ['management'] : [])], egress: [53, 5432, 6379, 8080, ...traced] },
      // The mailer never touches PostgreSQL.
      mailer: { ingress: scraped ? ['management'] : [], egress: [53, 6379, ...(values['smtp']['ports'] as number[]), ...traced] },
      keyRotation: { ingress: [], egress: [53, 5432] },
    };
    for (const w of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'CronJob')]) {
      const key = component(w) === 'key-rotation' ? 'keyRotation' : component(w);
      const p = policyOf(w);
      expect(p['spec']['policyTypes']).toEqual(['Ingress', 'Egress']);
      const ingress = own(p, 'ingress', key);
      const egress = own(p, 'egress', key);
      expect({ key, ingress: [...ports(ingress)].sort(), egress: [...ports(egress)].sort() }).toEqual({
        key,
        ingress: [...(expected[key]?.ingress ?? [])].sort(),
        egress: [...(expected[key]?.egress ?? [])].sort(),
      });
      // Every ingress rule names where from: nothing is open to every pod of the cluster.
      for (const rule of p['spec']['ingress'] ?? []) expect(rule['from'].length).toBeGreaterThan(0);
      // DNS goes to the peers the values name, and nowhere else; so does the collector's port.
      expect(egress.filter((r) => ports([r]).has(53)).map((r) => r['to'])).toEqual([np['dns']]);
      for (const port of key === 'keyRotation' ? [] : traced) expect(egress.filter((r) => ports([r]).has(port)).map((r) => r['to'])).toEqual([tracing['collector']]);
    }
    const secretsPolicy = policyOf(deployment(objects, 'secrets'));
    const identityPods = deployment(objects, 'identity')['spec']['template']['metadata']['labels'];
    const fromIdentity = own(secretsPolicy, 'ingress', 'secrets').filter((r) =>
      (r['from'] as Obj[]).some((f) => !f['namespaceSelector'] && matches(f['podSelector']?.['matchLabels'], identityPods)),
    );
    expect(fromIdentity.flatMap((r) => r['ports'])).toEqual([{ port: 'http', protocol: 'TCP' }]);
    // The public ports from the Ingress controller's peers, as the values name them.
    for (const name of ['identity', 'secrets'] as const) {
      const http = own(policyOf(deployment(objects, name)), 'ingress', name).find((r) => ports([r]).has('http'));
      for (const peer of np['ingressController'] as Obj[]) expect(http?.['from']).toContainEqual(peer);
    }
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
    const steps = chartContainersOf(job).map((c) => `${serviceOf(c)} ${(c['command'] as string[]).slice(2).join(' ')}`);
    expect(steps).toEqual(['identity bootstrap', 'secrets migrate']);
    for (const c of chartContainersOf(job)) expect((c['command'] as string[]).slice(0, 2)).toEqual(['node', 'dist/src/cli/main.js']);
    // A writable /tmp on the read-only root filesystem, as the Deployments have.
    for (const c of chartContainersOf(job)) expect(c['volumeMounts']).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
    expect(podOf(job)['volumes']).toContainEqual({ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } });
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
  const { objects: full, notes: fullNotes } = renderings.full;
  const images = (objects: Obj[]) => workloads(objects).flatMap((w) => containersOf(w).map((c) => String(c['image'])));

  it("uses the chart's appVersion as the tag by default, and the registry and digest when given", () => {
    expect(new Set(images(defaults))).toEqual(new Set(['hush-identity:0.1.0', 'hush-secrets:0.1.0', 'hush-mailer:0.1.0']));
    for (const image of images(full)) expect(image).toMatch(/^registry\.example\.com\/hush\/hush-(identity|secrets|mailer)@sha256:[0-9a-f]{64}$/);
  });

  it('wires hostnames, TLS and the issuer from the values', () => {
    const cm = (objects: Obj[], name: string) => ofKind(objects, 'ConfigMap').find((c) => component(c) === name)?.['data'];
    expect(cm(full, 'identity')['AUTH_URL']).toBe('https://auth.corp.example');
    expect(cm(full, 'secrets')['IDENTITY_ISSUER']).toBe('https://auth.corp.example/auth/realms/public');
    expect(cm(full, 'secrets')['IDENTITY_JWKS_URL']).toBe('http://hush-identity:8080/auth/realms/public/protocol/openid-connect/certs');
    expect(cm(full, 'secrets')['QUEUE_PREFIX']).toBe(cm(full, 'mailer')['QUEUE_PREFIX']);
    // Credential handover: the secrets API through its Service, identity itself through its own port.
    expect(cm(full, 'identity')['SECRETS_URL']).toBe('http://hush-secrets:3000');
    expect(cm(full, 'identity')['INTERNAL_URL']).toBe('http://127.0.0.1:8080');
    const ingress = ofKind(full, 'Ingress').find((i) => i['metadata']['name'] === 'hush') ?? {};
    expect(ingress['spec']['tls']).toEqual([{ secretName: 'hush-tls', hosts: ['auth.corp.example', 'secrets.corp.example'] }]);
    expect(ingress['spec']['ingressClassName']).toBe('nginx');
    const job = ofKind(full, 'Job')[0] ?? {};
    const bootstrap = variables(full, containersOf(job)[0] ?? {});
    expect(bootstrap.get('SECRETS_API_AUDIENCE')).toBe(`${cm(full, 'secrets')['BASE_URL']}/api/v1`);
    expect(fullNotes).toContain('https://secrets.corp.example/api/v1');
  });

  it('scales with an HPA when autoscaling is on, and with replicas when it is off', () => {
    const hpaTargets = (objects: Obj[]) => ofKind(objects, 'HorizontalPodAutoscaler').map((h) => h['spec']['scaleTargetRef']['name'] as string);
    expect(hpaTargets(defaults).sort()).toEqual(['hush-identity', 'hush-mailer', 'hush-secrets']);
    expect(hpaTargets(full).sort()).toEqual(['hush-identity', 'hush-secrets']);
    for (const d of ofKind(defaults, 'Deployment')) expect(d['spec']['replicas']).toBeUndefined();
    expect(deployment(full, 'mailer')['spec']['replicas']).toBe(2);
    expect(ofKind(full, 'PodDisruptionBudget')).toHaveLength(3);
    expect(hpaTargets(renderings.minimal.objects)).toEqual([]);
    for (const d of ofKind(renderings.minimal.objects, 'Deployment')) expect(d['spec']['replicas']).toBe(1);
  });

  it('spreads pods across zones, and restricts egress to the given CIDRs', () => {
    for (const d of ofKind(full, 'Deployment')) {
      const spread = podOf(d)['topologySpreadConstraints'] as Obj[];
      expect(spread.map((t) => t['topologyKey'])).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
      for (const t of spread) expect(matches(t['labelSelector']['matchLabels'], d['spec']['template']['metadata']['labels'])).toBe(true);
    }
    for (const d of ofKind(renderings.minimal.objects, 'Deployment')) expect(podOf(d)['topologySpreadConstraints']).toBeUndefined();
    const cidrs = ofKind(full, 'NetworkPolicy').flatMap((p) =>
      (p['spec']['egress'] as Obj[]).flatMap((r) => (r['to'] ?? []).flatMap((t: Obj) => (t['ipBlock'] ? [t['ipBlock']['cidr']] : []))),
    );
    expect(new Set(cidrs)).toEqual(new Set(['10.10.0.0/24', '10.10.1.0/24', '203.0.113.25/32']));
    expect(ofKind(defaults, 'ServiceMonitor')).toEqual([]);
    expect(ofKind(full, 'ServiceMonitor').map(component).sort()).toEqual([...SERVICES].sort());
  });

  it("takes DATABASE_URL from another Secret's key, and REDIS_URL from a value when it has no password", () => {
    const identity = deployment(full, 'identity');
    const c = podOf(identity)['containers'][0];
    expect(variables(full, c).get('DATABASE_URL_FILE')).toBe('/var/run/secrets/hush-database/DATABASE_URL');
    expect(podOf(identity)['volumes']).toContainEqual({
      name: 'identity-database',
      secret: { secretName: 'hush-identity-db-app', defaultMode: 0o440, items: [{ key: 'uri', path: 'DATABASE_URL' }] },
    });
    const job = ofKind(full, 'Job')[0] ?? {};
    expect(containersOf(job).map((x) => variables(full, x).get('DATABASE_URL_FILE'))).toEqual([
      '/var/run/secrets/hush-database/DATABASE_URL',
      '/var/run/secrets/hush-database/DATABASE_URL',
    ]);
    const withUrl = renderings.alternative.objects;
    for (const d of ofKind(withUrl, 'Deployment')) {
      const vars = variables(withUrl, podOf(d)['containers'][0]);
      expect({ d: component(d), url: vars.get('REDIS_URL'), file: vars.has('REDIS_URL_FILE') }).toEqual({ d: component(d), url: 'rediss://redis.internal:6379', file: false });
    }
    expect(() => renderChart([], RELEASE, { externalRedis: { url: 'redis://:pw@redis:6379' } })).toThrow(/url/);
  });

  it('names the migration Job after the revision, so every upgrade runs a new one', () => {
    const upgrade = renderChart([], { ...RELEASE, revision: 7 });
    expect(ofKind(upgrade.objects, 'Job').map((j) => j['metadata']['name'])).toEqual(['hush-migrate-7']);
  });

  it('refuses values that values.schema.json rejects: a typo, a bare true trustProxy, a secret or a chart-set key in config, a short digest', () => {
    expect(() => renderChart([], RELEASE, { identity: { autoscalling: { enabled: false } } })).toThrow(/autoscalling/);
    expect(() => renderChart([], RELEASE, { trustProxy: 'true' })).toThrow(/trustProxy/);
    expect(() => renderChart([], RELEASE, { trustProxy: '' })).toThrow(/trustProxy/);
    expect(() => renderChart([], RELEASE, { secrets: { config: { MASTER_KEY: 'x' } } })).toThrow(/config/);
    expect(() => renderChart([], RELEASE, { secrets: { config: { QUEUE_PREFIX: 'other' } } })).toThrow(/config/);
    expect(() => renderChart([], RELEASE, { mailer: { image: { digest: 'sha256:abc' } } })).toThrow(/digest/);
  });

  it('has a schema validator that does reject a broken object', () => {
    const broken = structuredClone(ofKind(defaults, 'Deployment')[0] ?? {});
    broken['spec']['template']['spec']['containers'][0]['ports'][0]['containerPort'] = 'eighty';
    delete broken['spec']['selector'];
    const errors = schemaErrors(broken);
    expect(errors.join('\n')).toMatch(/containerPort|selector/);
  });
});
