import bcrypt from 'bcryptjs';

/**
 * User passwords: bcrypt (slow on purpose). bcryptjs's async API yields to the event loop between
 * rounds, so a login never stalls other requests. Passwords over 72 bytes are refused rather than
 * silently truncated by bcrypt.
 */
export const MAX_PASSWORD_BYTES = 72;

export function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(password, cost);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
