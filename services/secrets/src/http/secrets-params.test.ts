import { mintTokenInput } from '../accounts/api-tokens.schemas.js';
import { InvalidLengthError, InvalidParameterError, InvalidRecipientError, InvalidTtlError, SecretRequiredError } from '../errors.js';
import { recentInput, revealInput, secretsInputs, characterCount } from './secrets-params.js';

/** The route input schemas: what each encoding's values become, and which error each mistake gives. */
const bounds = { min: 60, max: 2592000, fallback: 604800 };
const { share, generate } = secretsInputs(bounds);

function failure(parse: () => unknown): Error & { code: string; status: number } {
  try {
    parse();
  } catch (err) {
    return err as Error & { code: string; status: number };
  }
  throw new Error('expected the input to be refused');
}

describe('ttl', () => {
  it('when absent, blank or null, then the configured default', () => {
    for (const ttl of [undefined, '', '  ', null]) expect(share.parse({ secret: 'x', ttl }).ttl).toBe(604800);
  });

  it('accepts both bounds, digits with blanks around, JSON numbers and a one-element array', () => {
    expect(share.parse({ secret: 'x', ttl: '60' }).ttl).toBe(60);
    expect(share.parse({ secret: 'x', ttl: '2592000' }).ttl).toBe(2592000);
    expect(share.parse({ secret: 'x', ttl: ' 3600 ' }).ttl).toBe(3600);
    expect(share.parse({ secret: 'x', ttl: 3600 }).ttl).toBe(3600);
    expect(share.parse({ secret: 'x', ttl: ['3600'] }).ttl).toBe(3600);
  });

  it.each([['59'], ['2592001'], ['-5'], ['60.5'], ['1e3'], ['soon'], ['00000000060'], [60.5], [true]])('refuses %p with invalid_ttl naming the bounds', (ttl) => {
    const err = failure(() => share.parse({ secret: 'x', ttl }));
    expect(err).toBeInstanceOf(InvalidTtlError);
    expect(err.message).toBe('ttl must be a whole number of seconds from 60 to 2592000');
  });

  it('when given twice, then invalid_parameter (not invalid_ttl)', () => {
    const err = failure(() => generate.parse({ ttl: ['60', '61'] }));
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect(err.message).toBe('ttl must be given once, as a string');
  });
});

describe('recipient', () => {
  it('is trimmed; blank means none', () => {
    expect(share.parse({ secret: 'x', recipient: ' foo@example.com ' }).recipient).toBe('foo@example.com');
    expect(share.parse({ secret: 'x', recipient: '' }).recipient).toBeUndefined();
    expect(share.parse({ secret: 'x' }).recipient).toBeUndefined();
  });

  it('accepts `recipient[]` with one element; `recipient` wins when both are sent', () => {
    expect(share.parse({ secret: 'x', 'recipient[]': ['a@example.com'] }).recipient).toBe('a@example.com');
    expect(share.parse({ secret: 'x', recipient: null, 'recipient[]': 'a@example.com' }).recipient).toBe('a@example.com');
    expect(share.parse({ secret: 'x', recipient: 'b@example.com', 'recipient[]': 'a@example.com' }).recipient).toBe('b@example.com');
  });

  it('when not an address, then invalid_recipient', () => {
    for (const recipient of ['not-an-address', 'a b@example.com', 'a..b@example.com', 42]) {
      const err = failure(() => share.parse({ secret: 'x', recipient }));
      expect(err).toBeInstanceOf(InvalidRecipientError);
      expect(err.message).toBe('recipient is not a valid e-mail address');
    }
  });

  it('when two addresses (either spelling), then invalid_recipient: only one', () => {
    for (const params of [{ recipient: ['a@example.com', 'b@example.com'] }, { 'recipient[]': ['a@example.com', 'b@example.com'] }, { recipient: { a: 1 } }]) {
      const err = failure(() => generate.parse(params));
      expect(err).toBeInstanceOf(InvalidRecipientError);
      expect(err.message).toBe('only one recipient address is supported');
    }
  });
});

describe('length (generate)', () => {
  it('defaults to 12 and accepts 8 to 128', () => {
    expect(generate.parse({}).length).toBe(12);
    expect(generate.parse({ length: '' }).length).toBe(12);
    expect(generate.parse({ length: '8' }).length).toBe(8);
    expect(generate.parse({ length: 128 }).length).toBe(128);
  });

  it.each([['7'], ['129'], ['12.0'], ['0x10'], ['10000']])('refuses %p with invalid_length naming the bounds', (length) => {
    const err = failure(() => generate.parse({ length }));
    expect(err).toBeInstanceOf(InvalidLengthError);
    expect(err.message).toBe('length must be a whole number from 8 to 128');
  });
});

describe('passphrase', () => {
  it('is taken as sent (not trimmed); empty means none', () => {
    expect(revealInput.parse({ passphrase: ' p ' }).passphrase).toBe(' p ');
    expect(revealInput.parse({ passphrase: '' }).passphrase).toBeUndefined();
    expect(revealInput.parse({}).passphrase).toBeUndefined();
  });

  it('accepts 1024 characters and refuses 1025 with invalid_parameter', () => {
    expect(share.parse({ secret: 'x', passphrase: 'p'.repeat(1024) }).passphrase).toHaveLength(1024);
    const err = failure(() => revealInput.parse({ passphrase: 'p'.repeat(1025) }));
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect(err.message).toBe('passphrase must be at most 1024 characters');
  });
});

describe('secret', () => {
  it('when missing, null or empty, then secret_required', () => {
    for (const params of [{}, { secret: null }, { secret: '' }]) expect(failure(() => share.parse(params))).toBeInstanceOf(SecretRequiredError);
  });

  it('blanks are a value; JSON numbers and booleans are their text', () => {
    expect(share.parse({ secret: ' ' }).secret).toBe(' ');
    expect(share.parse({ secret: 5 }).secret).toBe('5');
    expect(share.parse({ secret: false }).secret).toBe('false');
  });

  it('when given twice, then invalid_parameter', () => {
    const err = failure(() => share.parse({ secret: ['a', 'b'] }));
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect(err.message).toBe('secret must be given once, as a string');
  });

  it('is checked before the options: the first field in order is the error', () => {
    expect(failure(() => share.parse({ ttl: 'soon', recipient: 'nope' }))).toBeInstanceOf(SecretRequiredError);
    expect(failure(() => share.parse({ secret: 'x', ttl: 'soon', recipient: 'nope' }))).toBeInstanceOf(InvalidTtlError);
  });
});

describe('recent paging', () => {
  // Issue 11: 100 by default (clients that ignore Link expect a whole list), at most 500.
  it('limit defaults to 100 and accepts 1 to 500; before is kept as sent, blank means none', () => {
    expect(recentInput.parse({})).toEqual({ limit: 100 });
    expect(recentInput.parse({ limit: '1', before: '' })).toEqual({ limit: 1 });
    expect(recentInput.parse({ limit: '500', before: 'bTQy' })).toEqual({ limit: 500, before: 'bTQy' });
  });

  it.each([['0'], ['501'], ['abc'], ['1000']])('refuses limit %p with invalid_parameter', (limit) => {
    const err = failure(() => recentInput.parse({ limit }));
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect(err.message).toBe('limit must be a whole number from 1 to 500');
  });
});

describe('API-token label', () => {
  it('is optional text', () => {
    expect(mintTokenInput.parse({}).label).toBeUndefined();
    expect(mintTokenInput.parse({ label: 'ci' }).label).toBe('ci');
    expect(failure(() => mintTokenInput.parse({ label: ['a', 'b'] })).message).toBe('label must be given once, as a string');
  });
});

describe('character count (the unit of plan limits)', () => {
  it('counts code points, not UTF-16 units or bytes', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('€€')).toBe(2);
    expect(characterCount('😀😀')).toBe(2);
    expect(characterCount('\ud800x')).toBe(2); // a lone surrogate is one character
  });
});

describe('recipient_only', () => {
  const ots = secretsInputs(bounds, 'onetimesecret');
  it('reads JSON booleans and form values alike, in both dialects; blank means absent', () => {
    for (const parser of [share, ots.share]) {
      for (const yes of [true, 'true', '1', 'on']) expect(parser.parse({ secret: 'x', recipient: 'a@example.com', recipient_only: yes }).recipient_only).toBe(true);
      for (const no of [false, 'false', '0']) expect(parser.parse({ secret: 'x', recipient: 'a@example.com', recipient_only: no }).recipient_only).toBe(false);
      expect(parser.parse({ secret: 'x', recipient_only: '' }).recipient_only).toBeUndefined();
    }
  });

  it('anything else is a 400', () => {
    expect(failure(() => share.parse({ secret: 'x', recipient_only: 'maybe' })).status).toBe(400);
  });
});
