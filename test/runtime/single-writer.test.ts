import { describe, expect, it } from 'vitest';
import { isSingleWriter } from '../../src/runtime/single-writer.js';

describe('the single-writer condition', () => {
  it('holds for SQLite with worker threads in this process', () => {
    expect(isSingleWriter('sqlite', { workers: 2 })).toBe(true);
  });

  it('does not hold for SQLite with workers 0, where another process runs the scenarios', () => {
    expect(isSingleWriter('sqlite', { workers: 0 })).toBe(false);
  });

  it('does not hold for PostgreSQL, whatever the workers', () => {
    expect(isSingleWriter('postgres', { workers: 2 })).toBe(false);
  });
});
