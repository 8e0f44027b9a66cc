import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS_DOC_PATH, renderErrorsDoc } from '../../scripts/errors-doc.js';
import { ERROR_CODES, ERROR_REGISTRY } from '../../src/errors.js';
import { errorCodesOf } from '../../src/http/openapi/error-codes.js';

describe('the error registry', () => {
  it('gives every code a status, a meaning and a fix', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      const spec = ERROR_REGISTRY[code];
      expect(spec.status >= 400 && spec.status < 600, code).toBe(true);
      expect(spec.meaning.length, code).toBeGreaterThan(10);
      expect(spec.fix.length, code).toBeGreaterThan(5);
    }
  });

  it('docs/api/errors.md is the registry as committed (run `npm run generate:errors` after a change)', () => {
    expect(readFileSync(ERRORS_DOC_PATH, 'utf8')).toBe(renderErrorsDoc());
  });

  it('lists for a route the codes of the statuses it documents, 404s narrowed to what its path names', () => {
    const codes = errorCodesOf('/sessions/:sid/webhooks/:id', ['200', '404', '422']);
    expect(codes).toEqual(expect.arrayContaining(['SESSION_NOT_FOUND', 'WEBHOOK_NOT_FOUND', 'ROUTE_NOT_FOUND', 'INVALID_REQUEST', 'WEBHOOK_TARGET_REFUSED']));
    expect(codes).not.toContain('DATASET_NOT_FOUND');
    expect(codes).not.toContain('TAG_TAKEN');
    expect(errorCodesOf('/sessions/:sid/scenarios', ['201', '404', '409'])).toEqual(
      expect.arrayContaining(['SESSION_NOT_FOUND', 'DATASET_NOT_FOUND', 'ALGORITHM_NOT_FOUND', 'TAG_TAKEN']),
    );
  });
});
