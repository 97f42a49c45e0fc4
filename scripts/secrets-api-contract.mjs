// Writes the secrets API's contract into packages/contracts: the OpenAPI document the secrets
// service serves (spec dialect, default settings), its types and its documented statuses, from
// which the typed client is made. Run it after changing the API, then commit what it wrote:
//   npx tsc -b services/secrets && node scripts/secrets-api-contract.mjs
// services/secrets/src/http/openapi.test.ts and packages/contracts' contract.test.ts fail while
// a file is out of date.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contractFiles } from '../packages/contracts/openapi-types.mjs';
import { readConfig } from '../services/secrets/dist/src/config.js';
import { openApiDocument } from '../services/secrets/dist/src/http/openapi.js';

const contracts = join(import.meta.dirname, '..', 'packages', 'contracts');
// The default settings (MASTER_KEY is required, and plays no part in the document).
const document = openApiDocument(readConfig({ MASTER_KEY: '00'.repeat(32) }));
writeFileSync(join(contracts, 'secrets-api.openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
for (const [name, text] of Object.entries(await contractFiles(document))) writeFileSync(join(contracts, 'src', 'secrets-api', name), text);
console.log('wrote packages/contracts/secrets-api.openapi.json, src/secrets-api/schema.ts and statuses.ts');
