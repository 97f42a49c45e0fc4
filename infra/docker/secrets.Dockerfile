# syntax=docker/dockerfile:1
# hush secrets: the one-time secret API (port 3000) and its admin CLI (dist/src/cli/main.js).
# Build from the repository root (the context is the whole workspace; see .dockerignore):
#   docker build -f infra/docker/secrets.Dockerfile -t hush-secrets:local .
# The three service Dockerfiles differ only in SERVICE and their ports; test/infra keeps them in step.

# Pinned to the Node version the workspace pins as its `node` devDependency (docs/adr/0001).
ARG NODE_IMAGE=node:22.23.3-bookworm-slim

# ---- deps: every package of the lockfile, fetched from pnpm-lock.yaml alone, so this layer is
#      reused until the lockfile changes (source edits do not refetch anything).
FROM ${NODE_IMAGE} AS deps
ENV CI=true PNPM_STORE=/pnpm/store
RUN npm install --global pnpm@10.34.9 && npm cache clean --force
WORKDIR /repo
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch --store-dir "$PNPM_STORE"

# ---- build: install offline from that store, compile this service and the packages it references,
#      then copy it with its production dependencies only into /out.
FROM deps AS build
ARG SERVICE=secrets
COPY . .
# --ignore-scripts: the only install scripts in the tree are the root `node` devDependency (it
# would download a second Node; this image has Node 22 already) and optional native speed-ups.
RUN pnpm install --offline --frozen-lockfile --ignore-scripts --store-dir "$PNPM_STORE"
# tsc through the image's node: node_modules/.bin holds no `node` shim once scripts are skipped.
RUN node node_modules/typescript/bin/tsc -b "services/${SERVICE}"
# pnpm 10 deploys non-injected workspaces only with --legacy; it copies the package (dist included)
# and installs its dependencies, with @hush/* workspace packages as real copies, no devDependencies.
# The versions are the lockfile's and the packages come from the store, but the legacy deploy reads
# the registry's metadata of the @hush/* packages' dependencies, which `pnpm fetch` does not keep:
# --prefer-offline, as --offline fails here (test/infra images.test.ts runs this very line).
RUN pnpm deploy --legacy --prefer-offline --frozen-lockfile --prod --filter "@hush/${SERVICE}" --store-dir "$PNPM_STORE" /out \
 && rm -rf /out/src /out/migrations /out/test /out/tsconfig*.json /out/dist/tsconfig.tsbuildinfo

# ---- runtime: Node, the compiled service and its production node_modules; nothing else.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and read-only to the process: the service cannot rewrite its own code.
COPY --from=build /out/ ./
# The image's `node` user, by number so Kubernetes can verify runAsNonRoot.
USER 1000:1000
# The public port, then the management port (/healthz, /readyz, /metrics).
EXPOSE 3000 9001
# No curl in slim images: Node's fetch. MANAGEMENT_PORT may be overridden at run time.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.MANAGEMENT_PORT||9001)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself; the service drains HTTP, then closes pools.
CMD ["node", "--import=@hush/telemetry/register", "--v8-pool-size=2", "--max-semi-space-size=4", "--max-old-space-size=512", "dist/src/main.js"]
