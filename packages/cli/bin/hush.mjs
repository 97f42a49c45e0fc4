#!/usr/bin/env node
// hush's entry point. In the repository it runs the TypeScript sources as they are: Node 22.18
// and later strip their types, so there is no build step. A package made by `npm pack` carries
// dist/hush.mjs instead, the same sources and @hush/zk bundled by scripts/bundle.mjs, and no src/.
import { existsSync } from 'node:fs';

const source = new URL('../src/main.ts', import.meta.url);
if (existsSync(source) && !process.features.typescript) {
  process.stderr.write(
    `hush: running from the repository needs Node 22.18 or later (this is ${process.version}): run it with the project's Node (npm run -s hush -- ...), or install the package (docs/cli.md).\n`,
  );
  process.exit(1);
}
// Run by `npm run hush` at the repository's root, hush works where the person is, not at the root.
if (process.env.npm_lifecycle_event === 'hush' && process.env.npm_package_name === 'hush' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);

const { main } = await import(existsSync(source) ? source.href : new URL('../dist/hush.mjs', import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
