import { ACCOUNT_CONSOLE } from '../console-sign-in/index.js';
import type { ConsoleNavItem, PageMessages } from '../pages/index.js';

const mount = ACCOUNT_CONSOLE.mount;

/** The account console's pages; `security` is h5's router (second factor and passkeys). */
export const ACCOUNT_PAGES = {
  profile: `${mount}/`,
  password: `${mount}/password`,
  applications: `${mount}/applications`,
  sessions: `${mount}/sessions`,
  security: `${mount}/security`,
} as const;

/** What a fault's page of the account console says (a catalogue key). */
export const ACCOUNT_CONSOLE_FAULT = 'account.fault';

/** The console's navigation, in the page's language. */
export const accountNav = (m: PageMessages): readonly ConsoleNavItem[] => [
  { href: ACCOUNT_PAGES.profile, label: m.text('account.nav.profile') },
  { href: ACCOUNT_PAGES.password, label: m.text('account.nav.password') },
  { href: ACCOUNT_PAGES.security, label: m.text('account.nav.security') },
  { href: ACCOUNT_PAGES.applications, label: m.text('account.nav.applications') },
  { href: ACCOUNT_PAGES.sessions, label: m.text('account.nav.sessions') },
];
