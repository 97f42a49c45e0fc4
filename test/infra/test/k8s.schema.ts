import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import type { Obj } from './k8s.render.js';

/**
 * Offline validation of rendered objects against the Kubernetes OpenAPI schemas (kubernetes-models,
 * generated from the API server's; the ServiceMonitor and PrometheusRule from the Prometheus Operator's CRDs). They
 * check types, required fields and enums, but not unknown fields: k8s.test.ts and helm.test.ts
 * also allow only the container fields we know.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- rendered YAML is untyped */
interface Validating {
  validate(): void;
}
// Each model's constructor takes its own typed shape; rendered YAML is untyped, hence `any`.
const MODELS: Record<string, new (data: any) => Validating> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'batch/v1/CronJob': CronJob,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};
/** The kinds the deployment files may hold, by apiVersion/kind. */
export const KNOWN_KINDS = Object.keys(MODELS);

/** The schema errors of one object ([] when valid), prefixed with where it is. */
export function schemaErrors(obj: Obj): string[] {
  const where = `${obj['kind']}/${obj['metadata']?.['name']}`;
  const Model = MODELS[`${obj['apiVersion']}/${obj['kind']}`];
  if (!Model) return [`${where}: unknown kind ${obj['apiVersion']}/${obj['kind']}`];
  try {
    new Model(obj).validate();
    return [];
  } catch (e) {
    return [`${where}: ${(e as Error).message}`];
  }
}

/** Container fields of core/v1 Container that we use; anything else is most likely a typo. */
export const CONTAINER_FIELDS = new Set([
  'name',
  'image',
  'imagePullPolicy',
  'command',
  'args',
  'ports',
  'env',
  'envFrom',
  'volumeMounts',
  'readinessProbe',
  'livenessProbe',
  'startupProbe',
  'lifecycle',
  'resources',
  'securityContext',
  'workingDir',
  // A native sidecar among the init containers (Kubernetes 1.29+): restartPolicy: Always.
  'restartPolicy',
]);
