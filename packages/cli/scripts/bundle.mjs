// `npm pack`'s prepack: bundles hush (src/main.ts) with what it imports (@hush/zk's format and
// client, qrcode and its dependencies) into dist/hush.mjs, one ES module with no dependencies, so
// the packed package installs from its tarball alone (npm install -g hush-cli-x.y.z.tgz), offline,
// on Node 20 or later. The licences of the bundled packages go beside it, in dist/licenses.txt.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;

const { metafile } = await build({
  entryPoints: [join(root, 'src/main.ts')],
  outfile: join(root, 'dist/hush.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // qrcode is CommonJS and requires Node's modules; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as __hushRequire } from 'node:module'; const require = __hushRequire(import.meta.url);" },
  absWorkingDir: root,
  metafile: true,
  logLevel: 'warning',
});

// Each third-party package the bundle holds: the folder its files came from, under node_modules.
const packages = new Set(Object.keys(metafile.inputs).flatMap((input) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
const notices = [...packages].sort().map((dir) => {
  const { name, version, license } = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const file = readdirSync(join(root, dir)).find((f) => /^licen[cs]e/i.test(f));
  const text = file && existsSync(join(root, dir, file)) ? readFileSync(join(root, dir, file), 'utf8').trim() : `(${license})`;
  return `${name} ${version} (${license})\n\n${text}\n`;
});
writeFileSync(join(root, 'dist/licenses.txt'), `hush bundles these packages, under these licences:\n\n${notices.join('\n---\n\n')}`);
