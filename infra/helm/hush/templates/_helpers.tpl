{{/*
The chart uses a documented subset of Helm's template language (values lookups, if/with/range,
define/include, default, quote, toYaml/nindent, printf, dict/list/index, .Release and .Chart),
so that test/infra can render it without the helm binary (test/infra/test/gotemplate.ts).
Named templates take a dict: root (the top-level context) and component (identity, secrets,
mailer or migrate).
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

{{/* Pod-level settings every workload shares. */}}
{{- define "hush.podCommon" -}}
automountServiceAccountToken: false
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with .root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
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

{{/* Health and metrics on the management port only. */}}
{{- define "hush.scrapeAnnotations" -}}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
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
