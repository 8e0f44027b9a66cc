/**
 * What a data source's `decode()` throws for a JSON form it rejects; the client gets a 400 whose detail
 * carries the message and, when given, names the table. (Any other error thrown by `decode()` is a 400
 * too; the table is then named only when the default checks can tell which one is wrong.)
 */
export class DatasetFormatError extends Error {
  override readonly name = 'DatasetFormatError';

  constructor(
    message: string,
    /** The table the problem is in, when the data source knows it. */
    readonly table?: string,
  ) {
    super(message);
  }
}
