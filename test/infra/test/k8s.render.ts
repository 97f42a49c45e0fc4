import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse, parseAllDocuments } from 'yaml';
import { renderTemplates, type Cluster } from './gotemplate.js';
import { repoRoot } from './services.contract.js';

/**
 * Offline renderings of what `helm template` and `kubectl kustomize` would produce from
 * infra/helm/hush and infra/k8s, so tests can check the objects a cluster would receive. Neither
 * tool is available here: the chart goes through our Go-template subset (gotemplate.ts), the
 * kustomization through the few kustomize fields it uses (anything else is refused).
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are untyped YAML */
export type Obj = Record<string, any>;

export const chartDir = join(repoRoot, 'infra', 'helm', 'hush');
export const kustomizeDir = join(repoRoot, 'infra', 'k8s');

// Kubernetes and Helm read YAML 1.1 (`0440` is octal).
const readYaml = (path: string): Obj => (parse(readFileSync(path, 'utf8'), { version: '1.1' }) as Obj | null) ?? {};
const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Helm's merge of values files: maps merge key by key, anything else replaces, null deletes. */
export function coalesce(base: Obj, override: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(override)) {
    if (v === null) delete out[k];
    else if (isMap(v) && isMap(out[k])) out[k] = coalesce(out[k], v);
    else out[k] = v;
  }
  return out;
}

function documents(text: string, where: string): Obj[] {
  return parseAllDocuments(text, { version: '1.1' }).flatMap((doc, i) => {
    if (doc.errors.length) throw new Error(`${where}#${i}: ${doc.errors.map((e) => e.message).join('; ')}\n${text}`);
    const obj = doc.toJS() as Obj | null;
    return obj ? [obj] : [];
  });
}

/** The chart's values.schema.json errors for `values` (helm checks the merged values before rendering). */
let validateValues: ReturnType<Ajv['compile']> | undefined;
export function valuesSchemaErrors(values: Obj): string[] {
  // Not strict: helm's validator accepts any draft-07 schema, as Ajv's strict mode would not.
  validateValues ??= new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8')) as Obj);
  const validate = validateValues;
  return validate(values) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

export interface ChartRendering {
  objects: Obj[];
  notes: string;
  values: Obj;
}

/** The chart's files as `.Files.Get` reads them: any file but the templates, "" when there is none. */
function chartFile(name: string): string {
  const path = join(chartDir, name);
  return !name.startsWith('templates/') && existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : '';
}

/**
 * `helm template <release> infra/helm/hush -n <namespace> -f <file>... --set ...`, for revision
 * `revision`; with `cluster`, as `helm upgrade` renders against a cluster holding those objects
 * (what the chart's `lookup`s find).
 */
export function renderChart(valueFiles: string[] = [], release = { name: 'hush', namespace: 'hush', revision: 1 }, set: Obj = {}, cluster: Cluster = []): ChartRendering {
  const chart = readYaml(join(chartDir, 'Chart.yaml'));
  const values = coalesce(
    valueFiles.reduce((acc, file) => coalesce(acc, readYaml(file)), readYaml(join(chartDir, 'values.yaml'))),
    set,
  );
  const invalid = valuesSchemaErrors(values);
  if (invalid.length) throw new Error(`values don't meet values.schema.json:\n${invalid.join('\n')}`);
  const dir = join(chartDir, 'templates');
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  const data = {
    Values: values,
    Chart: { Name: chart['name'], Version: chart['version'], AppVersion: chart['appVersion'] },
    Release: { Name: release.name, Namespace: release.namespace, Revision: release.revision, IsInstall: release.revision === 1, IsUpgrade: release.revision > 1, Service: 'Helm' },
    Files: { Get: chartFile },
  };
  const out = renderTemplates(files, data, cluster);
  // Like helm: files starting with _ only hold definitions; NOTES.txt is printed, not applied.
  const objects = Object.entries(out)
    .filter(([f]) => !f.startsWith('_') && f !== 'NOTES.txt')
    .flatMap(([f, text]) => documents(text, f));
  return { objects, notes: out['NOTES.txt'] ?? '', values };
}

const KUSTOMIZE_FIELDS = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'images', 'nameSuffix', 'patches']);

const readKustomization = (dir: string): Obj => {
  const k = readYaml(join(dir, 'kustomization.yaml'));
  const unknown = Object.keys(k).filter((f) => !KUSTOMIZE_FIELDS.has(f));
  if (unknown.length) throw new Error(`${dir}/kustomization.yaml: fields this renderer does not know: ${unknown.join(', ')}`);
  return k;
};

/**
 * A component's `patches` (each `path:` a strategic-merge patch naming its object by kind, name and
 * namespace) applied to `objects`: maps merge key by key, anything else replaces, as for the
 * ConfigMap data our patches add to. A patch that finds no object fails, as in kustomize.
 */
function applyPatches(objects: Obj[], dir: string, patches: Obj[]): void {
  for (const patch of patches) {
    if (typeof patch['path'] !== 'string' || Object.keys(patch).length !== 1) throw new Error(`${dir}: only patches of a path are rendered here`);
    for (const change of documents(readFileSync(join(dir, patch['path']), 'utf8'), join(dir, patch['path']))) {
      const at = objects.findIndex(
        (o) => o['kind'] === change['kind'] && o['metadata']['name'] === change['metadata']['name'] && o['metadata']['namespace'] === change['metadata']['namespace'],
      );
      if (at < 0) throw new Error(`${dir}: ${patch['path']} patches no object (${change['kind']} ${change['metadata']['name']})`);
      objects[at] = coalesce(objects[at] as Obj, change);
    }
  }
}

/** `kubectl kustomize` of a kustomization that lists `components` (folders of kind Component), for the fields our kustomizations use. */
export function renderKustomization(dir = kustomizeDir, components: string[] = []): Obj[] {
  const k = readKustomization(dir);
  const objects = ((k['resources'] ?? []) as string[]).flatMap((r) => {
    const path = join(dir, r);
    if (!existsSync(path)) throw new Error(`${dir}: resource ${r} does not exist`);
    return statSync(path).isDirectory() ? renderKustomization(path) : documents(readFileSync(path, 'utf8'), path);
  });
  // A component alone renders its own objects; its patches are for the kustomization listing it.
  if (k['kind'] !== 'Component') applyPatches(objects, dir, (k['patches'] ?? []) as Obj[]);
  for (const component of components) {
    objects.push(...renderKustomization(component));
    applyPatches(objects, component, (readKustomization(component)['patches'] ?? []) as Obj[]);
  }
  const images = (k['images'] ?? []) as Obj[];
  const suffix = (k['nameSuffix'] as string | undefined) ?? '';
  for (const obj of objects) {
    if (k['namespace'] && obj['kind'] !== 'Namespace') obj['metadata'] = { ...obj['metadata'], namespace: k['namespace'] };
    if (suffix) obj['metadata']['name'] = `${obj['metadata']['name']}${suffix}`;
    const pod = (obj['spec']?.['template']?.['spec'] ?? obj['spec']?.['jobTemplate']?.['spec']?.['template']?.['spec']) as Obj | undefined;
    for (const c of [...(pod?.['initContainers'] ?? []), ...(pod?.['containers'] ?? [])] as Obj[]) {
      const [name, tag] = String(c['image']).split(/[:@]/);
      const rule = images.find((i) => i['name'] === name);
      if (!rule) continue;
      const repository = rule['newName'] ?? name;
      c['image'] = rule['digest'] ? `${repository}@${rule['digest']}` : `${repository}:${rule['newTag'] ?? tag}`;
    }
  }
  return objects;
}
