import { ACCOUNT_CONSOLE } from '../console-sign-in/index.js';
import type { ConsoleNavItem } from '../pages/index.js';

const mount = ACCOUNT_CONSOLE.mount;

/** The account console's pages; `security` is h5's router (second factor and passkeys). */
export const ACCOUNT_PAGES = {
  profile: `${mount}/`,
  password: `${mount}/password`,
  applications: `${mount}/applications`,
  sessions: `${mount}/sessions`,
  security: `${mount}/security`,
} as const;

/** What a fault's page of the account console says. */
export const ACCOUNT_CONSOLE_FAULT = 'The account console could not do this. Try again later.';

export const ACCOUNT_NAV: readonly ConsoleNavItem[] = [
  { href: ACCOUNT_PAGES.profile, label: 'Profile' },
  { href: ACCOUNT_PAGES.password, label: 'Password' },
  { href: ACCOUNT_PAGES.security, label: 'Security' },
  { href: ACCOUNT_PAGES.applications, label: 'Applications' },
  { href: ACCOUNT_PAGES.sessions, label: 'Sessions' },
];
