import { z } from 'zod';
import type { AdminDeps } from './admin-deps.js';
import type { AdminRoute } from './admin-route.js';
import { ADMIN_MOUNT, ADMIN_ROUTES } from './admin.routes.js';
import { errorRepresentation } from './admin-schemas.js';

type JsonSchema = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _s, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return json;
};

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/**
 * OpenAPI 3.1 description of the admin API, generated from the route table (admin.routes.ts):
 * paths, roles, and the zod schemas each route parses its input with and answers with, so the
 * document cannot drift from the code; test/admin-openapi.test.ts checks real answers against it.
 */
export function adminOpenApiDocument(authUrl: string, routes: readonly AdminRoute<unknown, unknown, unknown, AdminDeps>[] = ADMIN_ROUTES) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const documented = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    const item = (paths[documented] ??= {});
    const pathParams = [...route.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const query = route.query ? jsonSchema(route.query, 'input') : undefined;
    const queryParams = Object.entries((query?.['properties'] ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({ name, in: 'query', schema }));
    const ok =
      route.ok.status === 200
        ? { description: route.ok.description, content: { 'application/json': { schema: route.ok.schema ? jsonSchema(route.ok.schema, 'output') : {} } } }
        : route.ok.status === 201
          ? { description: route.ok.description, headers: { Location: { description: 'Absolute URL ending in the new id', schema: { type: 'string' } } } }
          : { description: route.ok.description };
    item[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      description: `Requires one of the realm-management roles: ${route.roles.join(', ')} (realm-admin holds them all).`,
      'x-roles': route.roles,
      security: [{ bearerAuth: [] }],
      ...(pathParams.length + queryParams.length > 0 ? { parameters: [...pathParams, ...queryParams] } : {}),
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } } } : {}),
      responses: {
        [String(route.ok.status)]: ok,
        '400': error('Bad input'),
        '401': error('No access token, or not a valid one of this realm for the admin API'),
        '403': error('The token lacks the role'),
        ...Object.fromEntries(Object.entries(route.errors ?? {}).map(([status, text]) => [status, error(text)])),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hush identity admin API',
      version: '1.0.0',
      description:
        'Keycloak’s admin REST API for the realm `public`, in Keycloak’s representations. Bearer access tokens issued by identity for the admin API (scope `realm-management`), with realm-management roles under resource_access["realm-management"].roles.',
    },
    servers: [{ url: `${authUrl}${ADMIN_MOUNT}` }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: jsonSchema(errorRepresentation, 'output') },
    },
  };
}
