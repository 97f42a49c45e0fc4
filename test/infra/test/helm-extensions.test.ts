import { renderChart, type Obj } from './k8s.render.js';
import { chartContainersOf, component, containersOf, deployment, ofKind, podOf, podTemplateOf, RELEASE, renderings, workloads, workloadValues } from './chart.objects.js';
import { cliCommands, implemented, SERVICES } from './services.contract.js';

// What the chart lets a platform team change without a fork, and what it does on `helm upgrade`:
// the extension values of every workload, the pods rolled by a changed ConfigMap or Secret, the
// ServiceAccounts, the admin paths off the public host, the NetworkPolicy peers and the
// signing-key rotation CronJob.

const annotationsOf = (objects: Obj[]) =>
  Object.fromEntries(ofKind(objects, 'Deployment').map((d) => [component(d), (d['spec']['template']['metadata']['annotations'] ?? {}) as Record<string, string>]));
/** A Deployment's pod template without its checksum annotations: what else a change would roll it for. */
const templateWithoutChecksums = (d: Obj) => {
  const template = structuredClone(d['spec']['template']) as Obj;
  delete template['metadata']['annotations']['checksum/config'];
  delete template['metadata']['annotations']['checksum/secret'];
  return template;
};
const secret = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: RELEASE.namespace }, data });
const base64 = (s: string) => Buffer.from(s).toString('base64');

describe('helm upgrade rolls the pods whose configuration changed', () => {
  const before = renderChart();

  it('when only a config value changes, then only the pods of that service get a new checksum/config, and nothing else in their template changes', () => {
    const after = renderChart([], RELEASE, { identity: { config: { LOG_LEVEL: 'debug' } } });
    const [old, now] = [annotationsOf(before.objects), annotationsOf(after.objects)];
    expect(now['identity']?.['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
    expect(now['identity']?.['checksum/config']).not.toBe(old['identity']?.['checksum/config']);
    for (const name of ['secrets', 'mailer']) expect(now[name]?.['checksum/config']).toBe(old[name]?.['checksum/config']);
    for (const name of SERVICES) expect(templateWithoutChecksums(deployment(after.objects, name))).toEqual(templateWithoutChecksums(deployment(before.objects, name)));
  });

  it('when a value two services read changes (trustProxy), then both roll and the mailer does not', () => {
    const [old, now] = [annotationsOf(before.objects), annotationsOf(renderChart([], RELEASE, { trustProxy: '10.42.0.0/16' }).objects)];
    for (const name of ['identity', 'secrets']) expect(now[name]?.['checksum/config']).not.toBe(old[name]?.['checksum/config']);
    expect(now['mailer']?.['checksum/config']).toBe(old['mailer']?.['checksum/config']);
  });

  it('when a Secret a service reads changes in the cluster, then its pods get a new checksum/secret on the next upgrade, unless rollOnSecretChange is off', () => {
    const cluster = (masterKey: string) => [
      secret('identity-keys', { MASTER_KEY: base64(masterKey) }),
      secret('secrets-keys', { MASTER_KEY: base64('s') }),
      secret('mailer-smtp', { SMTP_URL: base64('smtp://relay') }),
    ];
    const annotations = (masterKey: string, set: Obj = {}) => annotationsOf(renderChart([], RELEASE, set, cluster(masterKey)).objects);
    const [old, now] = [annotations('one'), annotations('two')];
    expect(now['identity']?.['checksum/secret']).not.toBe(old['identity']?.['checksum/secret']);
    for (const name of ['secrets', 'mailer']) expect(now[name]?.['checksum/secret']).toBe(old[name]?.['checksum/secret']);
    // The Secret a PostgreSQL operator keeps (externalDatabase.identity.secretName) counts too.
    const viaOperator = { externalDatabase: { identity: { secretName: 'db-app', key: 'uri' } } };
    const withDb = (uri: string) => annotationsOf(renderChart([], RELEASE, viaOperator, [...cluster('one'), secret('db-app', { uri: base64(uri) })]).objects);
    expect(withDb('postgres://a')['identity']?.['checksum/secret']).not.toBe(withDb('postgres://b')['identity']?.['checksum/secret']);
    const off = { rollOnSecretChange: false };
    expect(annotations('two', off)['identity']?.['checksum/secret']).toBe(annotations('one', off)['identity']?.['checksum/secret']);
  });
});

describe('the extension values of every workload', () => {
  const { objects, values } = renderings.extensions;

  it.each(['identity', 'secrets', 'mailer', 'migrate', 'key-rotation'])(
    '%s: extra env, envFrom, volumes and mounts in its own containers, init containers first, pod labels and annotations',
    (name) => {
      const w = workloads(objects).find((x) => component(x) === name) ?? {};
      const own = workloadValues(values, w);
      const pod = podOf(w);
      for (const c of chartContainersOf(w)) {
        // After the chart's own, so a value never hides one of the chart's by accident of order.
        expect((c['env'] as Obj[]).slice(-own['extraEnv'].length)).toEqual(own['extraEnv']);
        expect((c['envFrom'] as Obj[]).slice(-own['extraEnvFrom'].length)).toEqual(own['extraEnvFrom']);
        expect(c['volumeMounts']).toEqual(expect.arrayContaining(own['extraVolumeMounts']));
      }
      expect(pod['volumes']).toEqual(expect.arrayContaining(own['extraVolumes']));
      const inits = (pod['initContainers'] ?? []) as Obj[];
      expect(inits.slice(0, (own['extraInitContainers'] ?? []).length)).toEqual(own['extraInitContainers'] ?? []);
      const template = podTemplateOf(w)['metadata'];
      expect(template['labels']).toMatchObject({ ...own['podLabels'], 'app.kubernetes.io/name': name });
      expect(template['annotations']).toMatchObject(own['podAnnotations']);
    },
  );

  it('puts the sidecars (extraContainers) beside the Deployments’ containers only', () => {
    for (const name of SERVICES) {
      const d = deployment(objects, name);
      const sidecars = (podOf(d)['containers'] as Obj[]).filter((c) => c['name'] !== name);
      expect({ name, sidecars }).toEqual({ name, sidecars: workloadValues(values, d)['extraContainers'] ?? [] });
    }
  });

  it('schedules each workload by its own nodeSelector, tolerations, affinity, priority and spread, else the chart-wide ones', () => {
    for (const w of workloads(objects)) {
      const own = workloadValues(values, w);
      const pod = podOf(w);
      const name = component(w);
      expect({ name, nodeSelector: pod['nodeSelector'], tolerations: pod['tolerations'] }).toEqual({ name, nodeSelector: own['nodeSelector'], tolerations: own['tolerations'] });
      expect({ name, affinity: pod['affinity'] }).toEqual({ name, affinity: own['affinity'] ?? values['affinity'] });
      expect({ name, priority: pod['priorityClassName'] }).toEqual({ name, priority: own['priorityClassName'] ?? values['priorityClassName'] });
    }
    expect(podOf(deployment(objects, 'identity'))['topologySpreadConstraints']).toEqual(values['identity']['topologySpreadConstraints']);
    // Without its own, a Deployment keeps the chart's zone-then-node spread.
    expect(podOf(deployment(objects, 'secrets'))['topologySpreadConstraints'].map((t: Obj) => t['topologyKey'])).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
  });

  it('runs each workload as its ServiceAccount, made with the annotations workload identity needs, never with an API token', () => {
    const accounts = ofKind(objects, 'ServiceAccount');
    for (const w of workloads(objects)) {
      const own = workloadValues(values, w)['serviceAccount'];
      const name = podOf(w)['serviceAccountName'];
      if (!own['create']) {
        expect({ w: component(w), name, made: accounts.some((a) => a['metadata']['name'] === name) }).toEqual({ w: component(w), name: own['name'], made: false });
        continue;
      }
      const account = accounts.find((a) => a['metadata']['name'] === name);
      expect({ w: component(w), name: account?.['metadata']['name'] }).toEqual({ w: component(w), name: own['name'] || `hush-${component(w)}` });
      expect(account?.['automountServiceAccountToken']).toBe(false);
      expect(account?.['metadata']['annotations']).toMatchObject(own['annotations']);
    }
  });

  it("makes the migration Job's ServiceAccount a hook that comes before the Job (on a first install nothing else exists yet), and none when create is off", () => {
    const hook = ofKind(renderings.default.objects, 'ServiceAccount').find((a) => a['metadata']['name'] === 'hush-migrate');
    const job = ofKind(renderings.default.objects, 'Job')[0] ?? {};
    expect(String(hook?.['metadata']['annotations']['helm.sh/hook']).split(',').sort()).toEqual(['pre-install', 'pre-upgrade']);
    expect(Number(hook?.['metadata']['annotations']['helm.sh/hook-weight'])).toBeLessThan(Number(job['metadata']['annotations']['helm.sh/hook-weight']));
    expect(podOf(job)['serviceAccountName']).toBe('hush-migrate');
    const minimal = renderings.minimal.objects;
    expect(ofKind(minimal, 'ServiceAccount')).toEqual([]);
    for (const w of workloads(minimal)) expect(podOf(w)['serviceAccountName']).toBeUndefined();
  });

  it('refuses the misspelt or misplaced among them: a typo in serviceAccount, a selector label, a checksum annotation, a sidecar without image', () => {
    expect(() => renderChart([], RELEASE, { identity: { serviceAccount: { create: true, annotation: {} } } })).toThrow(/annotation/);
    expect(() => renderChart([], RELEASE, { secrets: { podLabels: { 'app.kubernetes.io/name': 'x' } } })).toThrow(/podLabels/);
    expect(() => renderChart([], RELEASE, { mailer: { podAnnotations: { 'checksum/config': 'x' } } })).toThrow(/podAnnotations/);
    expect(() => renderChart([], RELEASE, { identity: { extraContainers: [{ name: 'proxy' }] } })).toThrow(/extraContainers/);
    expect(() => renderChart([], RELEASE, { migrate: { extraContainers: [] } })).toThrow(/extraContainers/);
  });
});

describe("identity's admin paths (Keycloak's hostname-admin)", () => {
  const routes = (objects: Obj[], name: string) =>
    (ofKind(objects, 'Ingress').find((i) => i['metadata']['name'] === name)?.['spec']['rules'] ?? []).flatMap((r: Obj) =>
      (r['http']['paths'] as Obj[]).map((p) => `${r['host']}${p['path']}`),
    );

  it('are on no Ingress by default: the public one routes only the realm’s paths of identity’s host', () => {
    const { objects, notes } = renderings.default;
    expect(routes(objects, 'hush').sort()).toEqual(['auth.example.com/auth/realms', 'secrets.example.com/']);
    expect(ofKind(objects, 'Ingress').map((i) => i['metadata']['name'])).toEqual(['hush']);
    expect(notes).toContain('port-forward');
  });

  it('go through the admin Ingress of another class, with the realm’s paths the administrators sign in through', () => {
    const { objects, notes } = renderings.full;
    expect(routes(objects, 'hush-admin').sort()).toEqual(['auth.corp.example/auth/admin', 'auth.corp.example/auth/realms']);
    expect(routes(objects, 'hush')).not.toContain('auth.corp.example/auth/admin');
    const admin = ofKind(objects, 'Ingress').find((i) => i['metadata']['name'] === 'hush-admin');
    expect(admin?.['spec']['ingressClassName']).toBe('nginx-internal');
    expect(notes).toContain('https://auth.corp.example/auth/admin/');
  });

  it('add only /auth/admin when the admin Ingress shares the public one’s host and class (the controller merges them; a path twice would be refused)', () => {
    const objects = renderChart([], RELEASE, {
      ingress: { admin: { enabled: true, annotations: { 'nginx.ingress.kubernetes.io/whitelist-source-range': '192.0.2.0/24' } } },
    }).objects;
    expect(routes(objects, 'hush-admin')).toEqual(['auth.example.com/auth/admin']);
  });

  it('on a host of their own serve the admin REST API with its token endpoint and TLS for that host, and the notes say the console stays on AUTH_URL’s', () => {
    const { objects, notes } = renderings.alternative;
    expect(routes(objects, 'hush-admin').sort()).toEqual(['auth-admin.corp.example/auth/admin', 'auth-admin.corp.example/auth/realms']);
    const admin = ofKind(objects, 'Ingress').find((i) => i['metadata']['name'] === 'hush-admin');
    expect(admin?.['spec']['tls']).toEqual([{ secretName: 'hush-admin-tls', hosts: ['auth-admin.corp.example'] }]);
    expect(notes).toContain('https://auth-admin.corp.example/auth/admin/realms/public');
    expect(notes).toMatch(/admin console: +only on https:\/\/auth\.corp\.example/);
  });
});

describe('NetworkPolicy peers and rules from the values', () => {
  const { objects } = renderings.alternative;
  const policy = (name: string) => ofKind(objects, 'NetworkPolicy').find((p) => component(p) === name)?.['spec'] ?? {};

  it('let in a Traefik controller, send DNS to NodeLocal DNSCache too, and reach a collector, as given', () => {
    const identity = policy('identity');
    expect(identity['ingress'][0]['from']).toContainEqual({
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'traefik' } },
      podSelector: { matchLabels: { 'app.kubernetes.io/name': 'traefik' } },
    });
    expect(JSON.stringify(objects.filter((o) => o['kind'] === 'NetworkPolicy'))).not.toContain('ingress-nginx');
    const dns = (identity['egress'] as Obj[]).find((r) => (r['ports'] as Obj[]).some((p) => p['port'] === 53));
    expect(dns?.['to']).toContainEqual({ ipBlock: { cidr: '169.254.20.10/32' } });
    expect(identity['egress']).toContainEqual({ to: [{ ipBlock: { cidr: '10.20.0.0/16' } }], ports: [{ port: 4318, protocol: 'TCP' }] });
  });

  it('keep the management ports closed when no Prometheus peers are given, rather than open to all', () => {
    for (const name of SERVICES) {
      const ingress = (policy(name)['ingress'] ?? []) as Obj[];
      expect({ name, management: ingress.filter((r) => (r['ports'] as Obj[]).some((p) => p['port'] === 'management')) }).toEqual({ name, management: [] });
    }
    expect(policy('mailer')['ingress']).toEqual([]);
  });

  it('refuse the peers in the shape of chart 0.1 (one object), naming the value', () => {
    expect(() => renderChart([], RELEASE, { networkPolicy: { ingressController: { namespaceSelector: { matchLabels: { a: 'b' } }, podSelector: {} } } })).toThrow(
      /ingressController/,
    );
    expect(() => renderChart([], RELEASE, { networkPolicy: { dns: [] } })).toThrow(/dns/);
  });
});

describe('the signing-key rotation CronJob', () => {
  const cronOf = (objects: Obj[]) => ofKind(objects, 'CronJob')[0];

  it("runs identity's `keys rotate` once a month, one run at a time, with identity's image, settings, database and key", () => {
    const { objects } = renderings.full;
    const cron = cronOf(objects) ?? {};
    expect(cron['spec']).toMatchObject({ schedule: '17 3 1 * *', concurrencyPolicy: 'Forbid' });
    const [c, ...others] = containersOf(cron);
    expect(others).toEqual([]);
    expect(c?.['command'].slice(0, 4)).toEqual(['node', 'dist/src/cli/main.js', 'keys', 'rotate']);
    if (implemented('identity')) expect(cliCommands('identity').has('keys')).toBe(true);
    const identity = podOf(deployment(objects, 'identity'))['containers'][0];
    expect(c?.['image']).toBe(identity['image']);
    expect(c?.['envFrom']).toEqual(identity['envFrom']);
    const fromIdentity = (identity['env'] as Obj[]).filter((e) => ['MASTER_KEY_FILE', 'DATABASE_URL_FILE'].includes(e['name']));
    expect(c?.['env']).toEqual(fromIdentity);
    expect(podOf(cron)['volumes']).toEqual(expect.arrayContaining(podOf(deployment(objects, 'identity'))['volumes'].filter((v: Obj) => v['name'] !== 'redis')));
    expect(podOf(cron)['restartPolicy']).toBe('Never');
  });

  it('takes its schedule and time zone from the values, and is gone with its ServiceAccount and NetworkPolicy when off', () => {
    expect(cronOf(renderings.alternative.objects)?.['spec']).toMatchObject({ schedule: '0 4 * * 1', timeZone: 'Europe/Berlin' });
    const off = renderChart([], RELEASE, { keyRotation: { enabled: false } }).objects;
    expect(off.filter((o) => component(o) === 'key-rotation')).toEqual([]);
    expect(() => renderChart([], RELEASE, { keyRotation: { enabled: true, schedule: 'monthly' } })).toThrow(/schedule/);
  });
});
