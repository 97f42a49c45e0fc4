import { z } from 'zod';
import { paramsParser, text } from '../http/params.js';
import { unixTime } from '../secrets/presenter.js';

/** Input and responses of the API-token routes; the OpenAPI document is generated from them. */

export const mintTokenInput = paramsParser(z.object({ label: text(z.string().optional().describe('A name to tell the tokens apart')) }));

export const mintedTokenResponse = z.strictObject({
  id: z.uuid(),
  custid: z.string(),
  label: z.string().nullable(),
  api_token: z.string(),
  created: unixTime,
});

export const tokenInfoResponse = z.strictObject({ id: z.uuid(), label: z.string().nullable(), created: unixTime, revoked: z.boolean() });

export const revokedTokenResponse = z.strictObject({ id: z.string(), revoked: z.literal(true) });

export type TokenInfo = z.output<typeof tokenInfoResponse>;
