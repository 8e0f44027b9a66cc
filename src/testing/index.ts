/** Helpers for a domain author's unit tests: `import { runAlgorithm } from 'scenarist/testing'`. */
export { runAlgorithm, RunFailedError, type AlgorithmRun, type LoggedLine, type RunAlgorithmOptions, type TestData } from './run-algorithm.js';
