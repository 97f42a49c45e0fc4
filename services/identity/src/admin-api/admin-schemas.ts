import { z } from 'zod';

/** What Keycloak's admin API reads from a query string: text, so flags and numbers are parsed. */
export const queryFlag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** `first`/`max` paging; a negative `max` (Keycloak's -1) is "all". */
export const paging = (defaultMax: number | undefined) => ({
  first: z.coerce.number().int().min(0).optional(),
  max: z.coerce
    .number()
    .int()
    .optional()
    .transform((m) => m ?? defaultMax),
});

/**
 * A list's order (not Keycloak's: its lists have one order, the default here): `sort`, one of
 * the list's sortable fields, and `direction`. Each field is backed by an index (db/list-sort.ts).
 */
export const sorting = <F extends string>(fields: readonly [F, ...F[]]) => ({
  sort: z.enum(fields).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
});

/** Keycloak's default page sizes. */
export const USERS_PAGE = 100;
export const ORGANIZATIONS_PAGE = 10;
export const EVENTS_PAGE = 100;

export const idParams = z.object({ id: z.string().min(1) });

/** Keycloak's `{ errorMessage }` (409, most 400s) and `{ error, error_description }` (401, 403, 404): both in the document. */
export const errorRepresentation = z.object({ errorMessage: z.string().optional(), error: z.string().optional(), error_description: z.string().optional() });
