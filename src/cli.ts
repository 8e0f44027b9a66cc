/** The `scenarist` command line: serve | worker | migrate. */
export { main } from './cli/main.js';
