import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../../test/support/server-process.ts';

/** Where the browser tests leave their screenshots, PDFs and timings (not committed). */
export const RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));
/** The example domain's sample files, uploaded by the planner flows. */
export const SAMPLE = `${REPO_ROOT}examples/warehouse/sample/`;
export const SAMPLE_FILES = ['sku_data.csv', 'warehouse_layout.csv'];
/** The API's prefix on the test servers. */
export const PREFIX = '/api/v1';
