import { renderChart, type Obj } from './k8s.render.js';
import { schemaErrors } from './k8s.schema.js';
import { chartContainersOf, component, ofKind, podOf, RELEASE, serviceOf, variables, workloads } from './chart.objects.js';
import { cliCommands, isReadBy, type ServiceName } from './services.contract.js';

// The chart's part in rotating MASTER_KEY and MAIL_SEALING_KEY (docs/deploy.md, "Rotating the root
// keys"): the switches that make the pods read the previous keys, and the rewrap hook Job.

const during = { keyRing: { masterKeysPrevious: true, mailSealingKeysPrevious: true, rewrap: { enabled: true, batchSize: 200 } } };
const envNames = (c: Obj) => ((c['env'] ?? []) as Obj[]).map((e) => String(e['name']));

describe('helm chart: rotating the root keys', () => {
  it('by default, reads no previous keys and runs no rewrap', () => {
    const { objects } = renderChart();
    for (const w of workloads(objects)) for (const c of chartContainersOf(w)) expect(envNames(c).filter((n) => n.includes('_PREVIOUS'))).toEqual([]);
    expect(ofKind(objects, 'Job').map((j) => String(j['metadata']['name']))).toEqual(['hush-migrate-1']);
  });

  it('during a rotation, gives every container holding MASTER_KEY or MAIL_SEALING_KEY the previous keys from its own Secret', () => {
    const { objects, values } = renderChart([], RELEASE, during);
    expect(objects.flatMap(schemaErrors)).toEqual([]);
    for (const w of workloads(objects))
      for (const c of chartContainersOf(w)) {
        const names = envNames(c);
        const where = `${component(w)}/${String(c['name'])}`;
        if (names.includes('MASTER_KEY_FILE')) expect({ where, previous: names.includes('MASTER_KEYS_PREVIOUS_FILE') }).toEqual({ where, previous: true });
        if (serviceOf(c) === 'mailer') expect({ where, previous: names.includes('MAIL_SEALING_KEYS_PREVIOUS_FILE') }).toEqual({ where, previous: true });
        const service = serviceOf(c) as ServiceName;
        const unknown = [...variables(objects, c, values).keys()].filter((v) => !isReadBy(service, v));
        expect({ where, unknown }).toEqual({ where, unknown: [] });
      }
  });

  it("rewraps in a post-install/post-upgrade hook Job as the migration Job runs, identity's then secrets', with their own ServiceAccount", () => {
    const { objects } = renderChart([], RELEASE, during);
    const job = ofKind(objects, 'Job').find((j) => j['metadata']['name'] === 'hush-rewrap-1') as Obj;
    expect(String(job['metadata']['annotations']['helm.sh/hook']).split(',').sort()).toEqual(['post-install', 'post-upgrade']);
    expect(component(job)).toBe('migrate');
    const steps = chartContainersOf(job).map((c) => `${serviceOf(c)} ${(c['command'] as string[]).slice(2).join(' ')}`);
    expect(steps).toEqual(['identity rewrap --batch-size 200 --json', 'secrets rewrap --batch-size 200 --json']);
    for (const c of chartContainersOf(job)) expect(cliCommands(serviceOf(c) as ServiceName).has('rewrap')).toBe(true);
    const account = String(podOf(job)['serviceAccountName']);
    const made = ofKind(objects, 'ServiceAccount').filter((a) => a['metadata']['name'] === account);
    expect(made.map((a) => String(a['metadata']['annotations']?.['helm.sh/hook']))).toContain('post-install,post-upgrade');
  });
});
