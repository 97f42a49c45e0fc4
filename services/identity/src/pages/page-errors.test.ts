import { BcryptPoolBusyError, CrossOriginFormError, CsrfRejectedError, DependencyUnavailableError, PayloadTooLargeError } from '@hush/common';
import { SignInsInProgressError } from '../errors.js';
import { describeInteractionError } from './page-errors.js';

describe('how the sign-in pages word an error (a catalogue key, worded in the page’s language)', () => {
  it('a refused form asks to start again; one from another site says so', () => {
    expect(describeInteractionError(new CsrfRejectedError(), new CsrfRejectedError())).toEqual({
      status: 400,
      code: 'invalid_request',
      message: 'errors.formRefused',
    });
    const cross = new CrossOriginFormError();
    expect(describeInteractionError(cross, cross)).toEqual({ status: 403, code: 'cross_origin', message: 'errors.formRefused' });
  });

  it('any other client error, oidc-provider’s included, is the expired page with its own status', () => {
    const sessionNotFound = Object.assign(new Error('interaction session id cookie not found'), { status: 400, expose: true });
    expect(describeInteractionError(sessionNotFound, undefined)).toEqual({
      status: 400,
      code: 'invalid_request',
      message: 'errors.expired',
    });
    const tooLarge = new PayloadTooLargeError('10 kB');
    expect(describeInteractionError(tooLarge, tooLarge)).toMatchObject({ status: 413, code: 'invalid_request' });
    expect(describeInteractionError(Object.assign(new Error('x'), { statusCode: 404 }), undefined)).toMatchObject({ status: 404 });
  });

  it('an outage is temporarily_unavailable with Retry-After; anything else is a fault', () => {
    const outage = new DependencyUnavailableError('redis', new Error('Connection is closed'));
    expect(describeInteractionError(outage, outage)).toEqual({ status: 503, code: 'temporarily_unavailable', message: 'errors.unavailable', headers: { 'Retry-After': '5' } });
    expect(describeInteractionError(new Error('bug'), undefined)).toBeUndefined();
  });

  it('a full bcrypt pool (503) and too many sign-ins from one address (429) are shown as they are, with their Retry-After', () => {
    const busy = new BcryptPoolBusyError(3);
    expect(describeInteractionError(busy, busy)).toMatchObject({ status: 503, code: 'temporarily_unavailable', headers: { 'Retry-After': '3' } });
    const crowd = new SignInsInProgressError();
    expect(describeInteractionError(crowd, crowd)).toMatchObject({ status: 429, code: 'temporarily_unavailable', headers: { 'Retry-After': '1' } });
    expect(describeInteractionError(Object.assign(new Error('bug'), { status: 502 }), undefined)).toBeUndefined();
  });
});
