import { obfuscateEmail as obfuscateAddress } from '@hush/queue';
import { isValidAddress } from './recipient.js';

describe('recipient addresses', () => {
  it.each([
    ['foo@example.com', 'fo*****@e*****.com'],
    ['tryouts@onetimesecret.com', 'tr*****@o*****.com'],
    ['r@onetimesecret.com', 'r*****@o*****.com'],
    ['first.last+tag@mail.example.co.uk', 'fi*****@m*****.uk'],
  ])('%s is shown as %s (Onetime Secret style)', (address, shown) => {
    expect(isValidAddress(address)).toBe(true);
    expect(obfuscateAddress(address)).toBe(shown);
  });

  it.each(['plain', '@example.com', 'a@', 'a@b', 'a b@example.com', 'a@example..com', '.a@example.com', `${'a'.repeat(65)}@example.com`, 'a@-example.com'])(
    'rejects %s',
    (address) => {
      expect(isValidAddress(address)).toBe(false);
    },
  );
});
