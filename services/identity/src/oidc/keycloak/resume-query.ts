import type { KoaContextWithOIDC } from 'oidc-provider';
import { ROUTES } from '../routes.js';

const RESUME_PREFIXES = [`${ROUTES.authorization}/`, `${ROUTES.code_verification}/`];

/**
 * A resume URL (`…/auth/<uid>`, `…/device/<uid>`) carries no query: oidc-provider builds it
 * without one and resumes from the parameters it stored. Its error handler still reads a query,
 * as an authorization request's, when the resume fails, and fails itself on one it cannot read
 * (a `redirect_uri[]`), which turns a refused resume into a 500. The query is dropped first.
 */
export async function resumeQuery(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  if (ctx.querystring && RESUME_PREFIXES.some((prefix) => ctx.path.startsWith(prefix) && ctx.path.length > prefix.length)) ctx.querystring = '';
  await next();
}
