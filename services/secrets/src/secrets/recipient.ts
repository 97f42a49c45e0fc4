/**
 * Recipient addresses: one address, validated strictly enough to be deliverable (a clear 400
 * otherwise), never logged, and shown back only obfuscated (obfuscateEmail in @hush/queue, shared
 * with the mailer's logs): `foo@example.com` -> `fo*****@e*****.com`.
 */
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}$/;

export function isValidAddress(address: string): boolean {
  if (address.length > 254) return false;
  const local = address.slice(0, address.lastIndexOf('@'));
  return ADDRESS.test(address) && local.length <= 64 && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
}
