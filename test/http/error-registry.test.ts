import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS_DOC_PATH, renderErrorsDoc } from '../../scripts/errors-doc.js';
import { ERROR_CODES, ERROR_REGISTRY } from '../../src/errors.js';
import { routeErrorCodes } from '../../src/http/route-errors.js';

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

  it("lists for a route what it declares and what its shape implies, no more", () => {
    const prefixes = ['', '/api/v1'];
    const create = routeErrorCodes(
      { method: 'POST', url: '/api/v1/sessions/:sid/webhooks', config: { errors: ['WEBHOOK_TARGET_REFUSED'] }, schema: { body: {} } },
      prefixes,
    );
    // Declared; a session in the path; a body and its schema; a token; every route's own.
    expect(create).toEqual(expect.arrayContaining(['WEBHOOK_TARGET_REFUSED', 'SESSION_NOT_FOUND', 'BODY_MALFORMED', 'INVALID_REQUEST', 'TOKEN_MISSING', 'STORE_UNAVAILABLE']));
    expect(create).not.toContain('QUERY_INVALID');
    expect(create).not.toContain('DATASET_NOT_FOUND');
    const probe = routeErrorCodes({ method: 'GET', url: '/health/live', config: { errors: [] } }, prefixes);
    expect(probe).toEqual(['NUL_CHARACTER', 'HOST_NOT_ALLOWED', 'INTERNAL_ERROR', 'STORE_UNAVAILABLE']);
  });
});
