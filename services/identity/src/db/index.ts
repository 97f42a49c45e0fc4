export { createDb, type Db, migrateLatest } from './knex.js';
export { likePattern } from './like.js';
export { PageBoundaries, pageOf } from './page-boundaries.js';
export { keyOf, sortedAfter, SORT_VALUE, type SortColumn, type SortDirection, type SortKey } from './list-sort.js';
