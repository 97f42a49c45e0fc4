import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointsOf } from './api-route.js';
import { API_MOUNT, API_ROUTES } from './api.routes.js';

// The route table is the only source that names an API path: adding a route is adding one
// declaration. Comments may describe the API; code elsewhere reaches it through API_MOUNT and the
// table. A page router may register its own routes at the same shapes outside the mount (the
// recipient's `/secret/:key` page): a registration of a router that is not the API's is not an API path.

const src = fileURLToPath(new URL('..', import.meta.url));
// The table is api.routes.ts and the zero-knowledge routes it includes.
const TABLE = [join(src, 'http', 'api.routes.ts'), join(src, 'http', 'zk.routes.ts')];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The code of a file: comments out, and page routers' own registrations out. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    .replace(/\.(get|post|use|delete)\(\s*(['`])[^'`]*\2/g, '.$1(<route>');
}

describe('API paths', () => {
  const files = sources(src).filter((f) => !TABLE.includes(f));
  const paths = [...new Set(endpointsOf(API_ROUTES).map((e) => e.path))];

  it('the table declares some, and the scan reads the source tree', () => {
    expect(paths.length).toBeGreaterThan(10);
    expect(files.length).toBeGreaterThan(30);
  });

  it.each(files.map((f) => [relative(src, f), f]))('%s names none', (_name, file) => {
    const text = code(readFileSync(file, 'utf8'));
    expect(text).not.toContain(API_MOUNT);
    for (const path of paths) for (const quote of ["'", '"', '`']) expect(text).not.toContain(`${quote}${path}${quote}`);
  });
});
