/* The pages' zero-knowledge script (docs/zero-knowledge.md §8) and what pages need to use it. */
export { zkScript, zkScriptRoutes, type ZkScript } from './zk-script.js';
export { fetchingPage, linkPage, sendRefusal } from './zk-page.js';
