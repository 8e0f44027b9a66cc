import { describe, expect, it } from 'vitest';
import { isSingleWriter } from '../../src/runtime/single-writer.js';

describe('the single-writer condition', () => {
  it('holds for SQLite, whose one process holds the store lock', () => {
    expect(isSingleWriter('sqlite')).toBe(true);
  });

  it('does not hold for PostgreSQL, which many processes share', () => {
    expect(isSingleWriter('postgres')).toBe(false);
  });
});
