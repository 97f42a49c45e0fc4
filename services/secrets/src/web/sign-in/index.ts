/* Sign-in: through identity, and sign-out at both ends. */
export { signInRoutes, type SignInDeps } from './sign-in.routes.js';
