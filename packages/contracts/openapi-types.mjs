// What src/secrets-api/ holds of the secrets service's OpenAPI document (secrets-api.openapi.json):
// its types (schema.ts, by openapi-typescript) and the statuses each operation documents
// (statuses.ts), which the typed client checks answers against. Written by
// scripts/secrets-api-contract.mjs; src/secrets-api/contract.test.ts checks them against the document.
import openapiTS, { astToString } from 'openapi-typescript';

const generated = (what) => `// Generated from secrets-api.openapi.json by scripts/secrets-api-contract.mjs: do not edit.
// ${what}
`;

/** `document`: the parsed OpenAPI document; the files' names under src/secrets-api/ and their text. */
export async function contractFiles(document) {
  const types = astToString(await openapiTS(document, { alphabetize: true }));
  const statuses = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post']) {
      const operation = item[method];
      if (operation) (statuses[path] ??= {})[method] = Object.keys(operation.responses).map(Number);
    }
  }
  return {
    'schema.ts': `${generated("The secrets API's paths, operations and schemas, as types (openapi-typescript).")}${types}`,
    'statuses.ts': `${generated('The statuses each operation of the secrets API documents.')}export const DOCUMENTED_STATUSES: Readonly<Record<string, Readonly<Record<string, readonly number[]>>>> = ${JSON.stringify(statuses)};\n`,
  };
}
