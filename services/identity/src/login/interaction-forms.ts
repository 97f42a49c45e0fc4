import { z } from 'zod';

/*
 * The sign-in pages' form input. Each form also carries its CSRF token (`csrf`), which the page
 * forms helper checks; a field sent twice reads as absent. The device and logout forms are
 * oidc-provider's own: it reads and checks them (`user_code`, `xsrf`, `logout`).
 */

/** The login form as typed: a missing field is empty; the username without surrounding spaces (it is shown back). */
export const loginForm = z.object({
  username: z.string().trim().default(''),
  password: z.string().default(''),
});

/** Credentials worth checking: both fields filled in. Anything else fails like a wrong password. */
export const credentials = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
});
