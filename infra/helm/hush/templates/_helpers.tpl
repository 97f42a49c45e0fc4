{{/*
The chart uses a documented subset of Helm's template language (values lookups, if/with/range,
define/include, default, quote, toYaml/nindent, printf, dict/list/index, sha256sum, lookup,
.Files.Get, .Release and .Chart), so that test/infra can render it without the helm binary
(test/infra/test/gotemplate.ts). Named templates take a dict: root (the top-level context),
component (identity, secrets, mailer, migrate or key-rotation) and, for a workload's pod, values
(the workload's values: .Values.identity, ..., .Values.migrate, .Values.keyRotation).
*/}}

{{- define "hush.fullname" -}}
{{ printf "%s-%s" .root.Release.Name .component | trunc 63 }}
{{- end }}

{{- define "hush.selectorLabels" -}}
app.kubernetes.io/name: {{ .component }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end }}

{{- define "hush.labels" -}}
{{ include "hush.selectorLabels" . }}
app.kubernetes.io/part-of: hush
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- end }}

{{/* repository[:tag] or repository@digest, under image.registry when set. */}}
{{- define "hush.image" -}}
{{- $image := (index .root.Values .component).image -}}
{{- $repository := $image.repository -}}
{{- with .root.Values.image.registry }}{{ $repository = printf "%s/%s" . $repository }}{{ end -}}
{{- if $image.digest -}}
{{ $repository }}@{{ $image.digest }}
{{- else -}}
{{ $repository }}:{{ $image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion }}
{{- end -}}
{{- end }}

{{- define "hush.url" -}}
{{ printf "%s://%s" .root.Values.publicScheme (index .root.Values.hosts .component) }}
{{- end }}

{{/* The ServiceAccount a workload's pods run as: its own when serviceAccount.create, else the named one ("" = the namespace's default). */}}
{{- define "hush.serviceAccountName" -}}
{{- $sa := .values.serviceAccount | default dict -}}
{{- if $sa.create -}}
{{ $sa.name | default (include "hush.fullname" .) }}
{{- else -}}
{{ $sa.name }}
{{- end -}}
{{- end }}

{{/* A ServiceAccount the chart makes for a workload; `hook` makes it a hook of the migration Job (which runs before the release's objects exist). */}}
{{- define "hush.serviceAccount" -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "hush.serviceAccountName" . }}
  labels:
    {{- include "hush.labels" . | nindent 4 }}
  {{- if or .hook .values.serviceAccount.annotations }}
  annotations:
    {{- if .hook }}
    helm.sh/hook: {{ .hookPhases | default "pre-install,pre-upgrade" }}
    helm.sh/hook-weight: "-1"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
    {{- end }}
    {{- with .values.serviceAccount.annotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
# No API token in the pods (automountServiceAccountToken: false there too): Hush never calls the
# Kubernetes API. Workload identity (cloud IAM) works through the annotations above.
automountServiceAccountToken: false
{{- end }}

{{/*
A workload's pod labels and annotations: the chart's, then the workload's podLabels and
podAnnotations. `annotations`: the chart's own for this pod, as YAML lines.
*/}}
{{- define "hush.podMetadata" -}}
labels:
  {{- include "hush.labels" . | nindent 2 }}
  {{- with .values.podLabels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- if or .annotations .values.podAnnotations }}
annotations:
  {{- with .annotations }}
  {{- . | nindent 2 }}
  {{- end }}
  {{- with .values.podAnnotations }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}
{{- end }}

{{/*
Pod-level settings every workload shares: no API token, its ServiceAccount, the restricted
security context, and where it is scheduled (the workload's nodeSelector, tolerations, affinity
and priorityClassName, else the chart-wide ones; its topologySpreadConstraints, else, with
`spread`, the chart's topologySpread).
*/}}
{{- define "hush.podCommon" -}}
{{- $v := .values -}}
automountServiceAccountToken: false
{{- with (include "hush.serviceAccountName" .) }}
serviceAccountName: {{ . }}
{{- end }}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with ($v.priorityClassName | default .root.Values.priorityClassName) }}
priorityClassName: {{ . | quote }}
{{- end }}
{{- with ($v.nodeSelector | default .root.Values.nodeSelector) }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with ($v.tolerations | default .root.Values.tolerations) }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with ($v.affinity | default .root.Values.affinity) }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if $v.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml $v.topologySpreadConstraints | nindent 2 }}
{{- else if .spread }}
{{- include "hush.topologySpread" . }}
{{- end }}
{{- end }}

{{- define "hush.topologySpread" -}}
{{- $ctx := . -}}
{{- with .root.Values.topologySpread }}
topologySpreadConstraints:
{{- range . }}
  - maxSkew: {{ .maxSkew }}
    topologyKey: {{ .topologyKey }}
    whenUnsatisfiable: {{ .whenUnsatisfiable }}
    labelSelector:
      matchLabels:
        {{- include "hush.selectorLabels" $ctx | nindent 8 }}
{{- end }}
{{- end }}
{{- end }}

{{/*
A Deployment's pod annotations: where Prometheus scrapes (the management port only), and the
checksums that roll the pods when what they read at start changes: checksum/config, the
service's ConfigMap; checksum/secret, the data of the Secrets it reads, as helm finds them in the
cluster (`lookup`; with rollOnSecretChange off, or where helm renders without a cluster, such as
`helm template`, nothing is found and the checksum does not change).
*/}}
{{- define "hush.deploymentAnnotations" -}}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
checksum/config: {{ include "hush.configData" . | sha256sum }}
checksum/secret: {{ include "hush.secretData" . | sha256sum }}
{{- end }}

{{/* The data of the Secrets a service's pods read (its existingSecret, and the URL Secrets of externalDatabase and externalRedis), one line each. */}}
{{- define "hush.secretData" -}}
{{- $root := .root -}}
{{- if $root.Values.rollOnSecretChange -}}
{{- $names := dict "keys" (index $root.Values .component).existingSecret -}}
{{- if ne .component "mailer" }}{{ $names = dict "keys" $names.keys "database" (index $root.Values.externalDatabase .component).secretName }}{{ end -}}
{{- if not $root.Values.externalRedis.url }}{{ $names = dict "keys" $names.keys "database" $names.database "redis" $root.Values.externalRedis.secretName }}{{ end -}}
{{- range $role, $name := $names }}
{{- with $name }}
{{ $role }}: {{ (lookup "v1" "Secret" $root.Release.Namespace .).data | toJson }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Where the database and Redis URLs come from (externalDatabase, externalRedis): env entries, and
the extra mounts and volumes when they come from Secrets of their own. Files, never env values,
unless externalRedis.url is a URL without a password.
*/}}
{{- define "hush.urlEnv" -}}
{{- $db := index .root.Values.externalDatabase .component -}}
{{- $redis := .root.Values.externalRedis -}}
{{- if ne .component "mailer" }}
- name: DATABASE_URL_FILE
  value: {{ if $db.secretName }}/var/run/secrets/hush-database/DATABASE_URL{{ else }}/var/run/secrets/hush/DATABASE_URL{{ end }}
{{- end }}
{{- if .redis }}
{{- if $redis.url }}
- name: REDIS_URL
  value: {{ $redis.url | quote }}
{{- else }}
- name: REDIS_URL_FILE
  value: {{ if $redis.secretName }}/var/run/secrets/hush-redis/REDIS_URL{{ else }}/var/run/secrets/hush/REDIS_URL{{ end }}
{{- end }}
{{- end }}
{{- end }}

{{- define "hush.urlMounts" -}}
{{- if ne .component "mailer" }}
{{- if (index .root.Values.externalDatabase .component).secretName }}
- { name: {{ printf "%s-database" .component }}, mountPath: /var/run/secrets/hush-database, readOnly: true }
{{- end }}
{{- end }}
{{- if and .redis .root.Values.externalRedis.secretName (not .root.Values.externalRedis.url) }}
- { name: redis, mountPath: /var/run/secrets/hush-redis, readOnly: true }
{{- end }}
{{- end }}

{{- define "hush.urlVolumes" -}}
{{- $redis := .root.Values.externalRedis -}}
{{- range $component := .components }}
{{- $db := index $.root.Values.externalDatabase $component }}
{{- if $db.secretName }}
- name: {{ printf "%s-database" $component }}
  secret:
    secretName: {{ $db.secretName | quote }}
    defaultMode: 0440
    items:
      - { key: {{ $db.key | quote }}, path: DATABASE_URL }
{{- end }}
{{- end }}
{{- if and .redis $redis.secretName (not $redis.url) }}
- name: redis
  secret:
    secretName: {{ $redis.secretName | quote }}
    defaultMode: 0440
    items:
      - { key: {{ $redis.key | quote }}, path: REDIS_URL }
{{- end }}
{{- end }}

{{/*
Egress to the tracing collector (tracing.collector on tracing.port), when traces are on and its
peers are given; nothing otherwise.
*/}}
{{- define "hush.egressTracing" -}}
{{- with .Values.tracing }}
{{- if and .endpoint .collector }}
# The OpenTelemetry collector (tracing.endpoint).
- to:
    {{- toYaml .collector | nindent 4 }}
  ports:
    - { port: {{ .port }}, protocol: TCP }
{{- end }}
{{- end }}
{{- end }}

{{/*
The keys a rotation keeps able to open what they sealed (docs/deploy.md, "Rotating the root
keys"): while keyRing.masterKeysPrevious is on, identity's and secrets' Secrets also hold
MASTER_KEYS_PREVIOUS; while keyRing.mailSealingKeysPrevious is on, the mailer's holds
MAIL_SEALING_KEYS_PREVIOUS. Off, nothing is added.
*/}}
{{- define "hush.masterKeysPreviousEnv" -}}
{{- if .Values.keyRing.masterKeysPrevious }}
- { name: MASTER_KEYS_PREVIOUS_FILE, value: /var/run/secrets/hush/MASTER_KEYS_PREVIOUS }
{{- end }}
{{- end }}

{{- define "hush.mailSealingKeysPreviousEnv" -}}
{{- if .Values.keyRing.mailSealingKeysPrevious }}
- { name: MAIL_SEALING_KEYS_PREVIOUS_FILE, value: /var/run/secrets/hush/MAIL_SEALING_KEYS_PREVIOUS }
{{- end }}
{{- end }}
