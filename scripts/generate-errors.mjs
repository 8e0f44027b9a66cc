// Regenerates docs/api/errors.md from the error registry (src/errors.ts). Run: npm run generate:errors
import { writeFileSync } from 'node:fs';
import { ERRORS_DOC_PATH, renderErrorsDoc } from './errors-doc.ts';

writeFileSync(ERRORS_DOC_PATH, renderErrorsDoc());
console.log(`wrote ${ERRORS_DOC_PATH}`);
