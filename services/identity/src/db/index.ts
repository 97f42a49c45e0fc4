export { createDb, type Db, migrateLatest } from './knex.js';
export { likePattern } from './like.js';
export { PageBoundaries, pageOf } from './page-boundaries.js';
