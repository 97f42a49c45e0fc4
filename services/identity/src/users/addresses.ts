/**
 * When two e-mail addresses are the same: case aside, around spaces aside, as mail providers
 * treat them and as the resource servers compare them (packages/common `addressKey`, the secrets
 * service's recipient match). An account whose address changes only in case keeps its
 * verification and its open links.
 */
export const addressForm = (address: string): string => address.trim().toLowerCase();

export const sameAddress = (a: string | null, b: string | null): boolean => (a === null ? null : addressForm(a)) === (b === null ? null : addressForm(b));
