/* Settings: the signed-in account's defaults for the share page. */
export { settingsRoutes } from './settings.routes.js';
