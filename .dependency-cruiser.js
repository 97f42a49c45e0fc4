// The architecture rules `npm test` enforces (`pnpm lint:deps`, run by `pnpm lint` and `pnpm check`).
// Each rule says why it exists; a violation names the importing file and what it reached.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = import.meta.dirname;
const dirs = (path) => (existsSync(join(root, path)) ? readdirSync(join(root, path), { withFileTypes: true }).filter((d) => d.isDirectory()) : []).map((d) => d.name);
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A composition root wires every feature of its service together, so it may reach anything
// inside that service: app.ts builds the app, context.ts the dependencies, main.ts runs it,
// wiring/ makes what the features share and runs their timers, and cli/ is the admin tool's own
// entry point.
const compositionRoot = '^services/[^/]+/src/(app\\.ts|context\\.ts|main\\.ts|wiring/|cli/)';

// A feature folder that has an index.ts has declared its public surface there: every other
// folder goes through it, so the folder's files can be split, renamed or merged without touching
// their callers. Its mount.ts, if any, is the one other door, for the composition root alone
// (the rule below). Its message catalogues (messages/) are a third, for the service's page kit,
// which gathers every feature's words into one catalogue per language. One rule per such folder,
// found when the check runs.
const throughIndex = [];
for (const service of dirs('services'))
  for (const feature of dirs(`services/${service}/src`))
    if (existsSync(join(root, 'services', service, 'src', feature, 'index.ts'))) {
      const folder = `^services/${escape(service)}/src/${escape(feature)}/`;
      throughIndex.push({
        name: 'feature-through-index',
        comment: `services/${service}/src/${feature} exports what others may use from its index.ts; import that, not its files.`,
        severity: 'error',
        from: { path: `^services/${escape(service)}/src/`, pathNot: folder },
        to: { path: folder, pathNot: `${folder}((index|mount)\\.ts|messages/[a-z]+\\.ts)$` },
      });
    }

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A cycle makes two modules one unit: neither can be read, tested or moved without the other, and ESM evaluates one of them half-initialised. Move what both need into a third module.',
      severity: 'error',
      from: { path: '^(services|packages)/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'services-stay-apart',
      comment: 'Each service is deployed, scaled and migrated on its own; what two services share belongs in packages/*.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/[^/]+/', pathNot: '^services/$1/' },
    },
    {
      name: 'packages-below-services',
      comment: 'packages/* are the shared layer under the services; a package that reached into a service would tie every other service to it.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^services/' },
    },
    {
      name: 'repository-inside-its-feature',
      comment:
        'SQL lives only in *.repository.ts, and a repository is the private data access of its feature: other features call that feature’s use-cases, so its tables can change without them. Only the composition root (app.ts, context.ts, main.ts, cli/) wires repositories into use-cases. A type-only import is allowed: a use-case declares what it reads as Pick<OtherRepository, ...> and receives it from the composition root, which keeps its reach visible.',
      severity: 'error',
      from: { path: '^services/([^/]+)/src/([^/]+)/', pathNot: compositionRoot },
      to: { path: '^services/$1/src/[^/]+/[^/]+\\.repository\\.ts$', pathNot: '^services/$1/src/$2/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'repository-inside-its-feature',
      comment: 'The same rule for the files at the top of a service’s src/: only its composition root may import a repository (its types excepted).',
      severity: 'error',
      from: { path: '^services/[^/]+/src/[^/]+\\.ts$', pathNot: compositionRoot },
      to: { path: '\\.repository\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    ...throughIndex,
    {
      name: 'mount-from-composition-root',
      comment:
        'A feature’s mount.ts adds its routes to the app from the shared deps (wiring/deps.ts); only the composition root calls it, so no feature mounts another and the deps stay out of the features’ index.ts (which the deps are built from).',
      severity: 'error',
      from: { path: '^services/[^/]+/src/', pathNot: compositionRoot },
      to: { path: '^services/[^/]+/src/[^/]+/mount\\.ts$' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the check cannot resolve is one it cannot judge; it is usually a typo or a missing dependency.',
      severity: 'error',
      from: { path: '^(services|packages)/[^/]+/src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Our own source only (the command names services/*/src and packages/*/src): tests are not
    // part of the architecture, and not following node_modules keeps the check to a second.
    exclude: { path: '\\.test\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle of types still makes two modules one unit for a reader.
    tsPreCompilationDeps: true,
    // `@hush/<name>` resolves to the workspace's source, not its build output, so the check needs
    // no build and sees what a reader sees (jest.config.js's moduleNameMapper does the same).
    tsConfig: { fileName: '.dependency-cruiser.tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.json'],
      conditionNames: ['import', 'default'],
    },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
