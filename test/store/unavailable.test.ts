import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from '../../src/store/unavailable.js';

const coded = (code: string, message = 'driver error') => Object.assign(new Error(message), { code });

describe('a database failure that means the store is unavailable', () => {
  it.each([
    ['nobody listens at the address', coded('ECONNREFUSED')],
    ['a refusal at every address of a host', new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed')],
    ['a host that cannot be reached', coded('EHOSTUNREACH')],
    ['a name that does not resolve', coded('ENOTFOUND')],
    ['a connection exception (class 08)', coded('08006')],
    ['an administrator shutdown', coded('57P01')],
    ['a server that cannot take connections now', coded('57P03')],
    ['too many connections', coded('53300')],
    ['a connection that died under a query', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a file another process keeps locked', coded('SQLITE_BUSY', 'database is locked')],
    ['a failing disk', coded('SQLITE_IOERR_WRITE', 'disk I/O error')],
    ['a file moved away under the process', coded('SQLITE_READONLY_DBMOVED')],
    ['a full disk', coded('SQLITE_FULL')],
    ['an outage wrapped by a caller', new Error('could not store the dataset', { cause: coded('ECONNREFUSED') })],
  ])('%s', (_case, err) => {
    expect(isStoreUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', coded('23505')],
    ['a SQLite constraint', coded('SQLITE_CONSTRAINT_UNIQUE')],
    ['an unknown table (a bug)', coded('42P01')],
    ['a malformed statement', coded('SQLITE_ERROR', 'near "selec": syntax error')],
    ['an error of our own', new Error('something else')],
    ['a thrown string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('not %s', (_case, err) => {
    expect(isStoreUnavailable(err)).toBe(false);
  });
});
