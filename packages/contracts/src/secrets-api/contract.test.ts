import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain ES module without types, shared with scripts/secrets-api-contract.mjs.
import { contractFiles } from '../../openapi-types.mjs';

const here = (name: string) => new URL(name, import.meta.url);

test('schema.ts and statuses.ts are what the committed OpenAPI document makes (run scripts/secrets-api-contract.mjs)', async () => {
  const document: unknown = JSON.parse(readFileSync(here('../../secrets-api.openapi.json'), 'utf8'));
  const files = (await contractFiles(document)) as Record<string, string>;
  expect(Object.keys(files).sort()).toEqual(['schema.ts', 'statuses.ts']);
  for (const [name, text] of Object.entries(files)) expect({ name, text: readFileSync(here(name), 'utf8') }).toEqual({ name, text });
});
