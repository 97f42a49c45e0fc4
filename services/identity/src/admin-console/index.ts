export { adminConsole, adminConsoleRedirect } from './admin-console.js';
