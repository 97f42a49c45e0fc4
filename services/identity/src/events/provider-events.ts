import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { EventRecorder } from './event-recorder.js';
import type { UserEventType } from './events.types.js';

/** Keycloak's event type of a token request, by grant (the device grant is Keycloak's CODE_TO_TOKEN too). */
const GRANT_EVENTS: Record<string, UserEventType> = {
  client_credentials: 'CLIENT_LOGIN',
  authorization_code: 'CODE_TO_TOKEN',
  'urn:ietf:params:oauth:grant-type:device_code': 'CODE_TO_TOKEN',
  refresh_token: 'REFRESH_TOKEN',
};

/**
 * The token endpoint's and sign-out's user events, from oidc-provider's own events (emitted after
 * each request's outcome is known), so the protocol's code paths stay untouched: a grant's success
 * or failure (`CLIENT_LOGIN`, `CODE_TO_TOKEN`, `REFRESH_TOKEN` and their `_ERROR`), and `LOGOUT`.
 * Only names are taken from the request: the client id (from HTTP Basic, only the part before the
 * colon), never a secret, code or token.
 */
export function recordProviderEvents(provider: Provider, events: Pick<EventRecorder, 'user'>): void {
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const grant = grantOf(ctx);
    const type = GRANT_EVENTS[grant];
    if (!type) return;
    const entities = ctx.oidc.entities as {
      AuthorizationCode?: { accountId?: string; sessionUid?: string };
      RefreshToken?: { accountId?: string; sessionUid?: string };
      DeviceCode?: { accountId?: string };
    };
    const source = entities.AuthorizationCode ?? entities.RefreshToken ?? entities.DeviceCode;
    const accountId = source?.accountId;
    events.user({
      type,
      clientId: ctx.oidc.client?.clientId,
      userId: accountId && accountId !== ctx.oidc.client?.clientId ? accountId : undefined,
      sessionId: (source as { sessionUid?: string } | undefined)?.sessionUid,
      ipAddress: ctx.ip,
      details: { grant_type: grant, ...(typeof ctx.oidc.params?.scope === 'string' && ctx.oidc.params.scope ? { scope: ctx.oidc.params.scope } : {}) },
    });
  });
  provider.on('grant.error', (ctx: KoaContextWithOIDC, err: { error?: string }) => {
    const grant = grantOf(ctx);
    const type = GRANT_EVENTS[grant] ?? 'CLIENT_LOGIN';
    events.user({
      type: `${type}_ERROR` as UserEventType,
      clientId: ctx.oidc?.client?.clientId ?? presentedClientId(ctx),
      ipAddress: ctx.ip,
      error: err.error ?? 'server_error',
      details: grant ? { grant_type: grant } : {},
    });
  });
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
    const session = ctx.oidc.session as { accountId?: string; uid?: string } | undefined;
    events.user({ type: 'LOGOUT', clientId: ctx.oidc.client?.clientId, userId: session?.accountId, sessionId: session?.uid, ipAddress: ctx.ip });
  });
}

function grantOf(ctx: KoaContextWithOIDC): string {
  const grant = ctx.oidc?.params?.grant_type;
  return typeof grant === 'string' ? grant.slice(0, 100) : '';
}

/** The client id a failed request named: its form field, or the user part of HTTP Basic (never the password). */
function presentedClientId(ctx: KoaContextWithOIDC): string | undefined {
  const fromForm = ctx.oidc?.params?.client_id;
  if (typeof fromForm === 'string' && fromForm) return fromForm.slice(0, 200);
  const header = ctx.get('authorization');
  if (!/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon)).slice(0, 200);
  } catch {
    return undefined;
  }
}
