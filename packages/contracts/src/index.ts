/**
 * What identity and the secrets service (and the `hush` command line) rely on of each other,
 * declared once: the secrets API's scopes, the clients identity registers for the others and
 * their callback paths, and a typed client of the secrets API made from its OpenAPI document.
 * Values and types only: this package loads nothing.
 */
export * from './scopes.ts';
export * from './clients.ts';
export * from './secrets-api/client.ts';
export type { components as SecretsApiComponents, operations as SecretsApiOperations, paths as SecretsApiPaths } from './secrets-api/schema.ts';
