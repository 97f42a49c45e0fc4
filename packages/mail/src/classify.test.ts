import { classifySendError } from './classify.js';

/** Errors shaped as nodemailer 10 builds them (see its errors.d.ts: NodemailerError). */
const smtpError = (code: string, responseCode: number, command: string) =>
  Object.assign(new Error(`Can't send mail: ${responseCode} <someone@example.com> nope`), {
    code,
    responseCode,
    command,
    response: `${responseCode} <someone@example.com> nope`,
    permanent: responseCode >= 500 && responseCode !== 503,
  });

describe('classifying a failed send', () => {
  test.each([
    [smtpError('EENVELOPE', 550, 'RCPT TO'), true, '550 recipient rejected by the SMTP server'],
    [smtpError('EENVELOPE', 553, 'MAIL FROM'), true, '553 sender rejected by the SMTP server'],
    [smtpError('EMESSAGE', 552, 'DATA'), true, '552 message rejected by the SMTP server'],
    [smtpError('EENVELOPE', 451, 'RCPT TO'), false, '451 recipient deferred by the SMTP server'],
    [smtpError('EMESSAGE', 421, 'DATA'), false, '421 message deferred by the SMTP server'],
    [smtpError('EPROTOCOL', 503, 'RCPT TO'), false, '503 recipient deferred by the SMTP server'],
    [smtpError('EAUTH', 535, 'AUTH PLAIN'), false, '535 EAUTH SMTP authentication or TLS failure'],
    [Object.assign(new Error('x'), { code: 'ETLS' }), false, 'ETLS SMTP authentication or TLS failure'],
    [Object.assign(new Error('No recipients defined'), { code: 'EENVELOPE' }), true, 'invalid recipient address'],
    [Object.assign(new Error('x'), { code: 'ECONNECTION' }), false, 'ECONNECTION connection problem'],
    [Object.assign(new Error('x'), { code: 'ETIMEDOUT' }), false, 'ETIMEDOUT connection problem'],
    [Object.assign(new Error('x'), { code: 'EDNS' }), false, 'EDNS connection problem'],
    [new Error('something else'), false, 'unknown connection problem'],
    ['not even an error', false, 'unknown connection problem'],
  ])('%#: %o → permanent %s', (error, permanent, reason) => {
    const failure = classifySendError(error);
    expect(failure).toEqual({ permanent, reason });
    expect(failure.reason).not.toContain('@');
  });

  test('without nodemailer’s `permanent` flag, the reply class decides', () => {
    expect(classifySendError({ responseCode: 554, command: 'DATA' }).permanent).toBe(true);
    expect(classifySendError({ responseCode: 450, command: 'RCPT TO' }).permanent).toBe(false);
  });
});
