import { EtlInputError } from './errors.js';
import { formatBytes } from './format-bytes.js';

/**
 * What the upload (ETL) code says when it refuses a request or a file, one factory per situation, as
 * src/error-factories.ts does for the rest of the service: throw sites pass values and the sentence is
 * written here, once. These build `EtlInputError`s rather than plain `ScenaristError`s because the
 * pipeline needs the `file` an error is about (it turns one unreadable file into a message beside the
 * others'), which the service-wide factories, importing nothing of src/, cannot know of.
 */

/** An error whose sentence starts with the file's name, so the client knows which upload to fix. */
const fileError = (file: string, problem: string, code?: 'ETL_SCHEMA_MISMATCH') => new EtlInputError(`file '${file}': ${problem}`, file, code);
/** A file past a structural limit (`maxFieldBytes`): the sentence names the file and where in it. */
const structureError = (file: string, where: string, problem: string) =>
  new EtlInputError(`file '${file}', ${where}: ${problem}`, file, 'UPLOAD_STRUCTURE_LIMIT');
const zipBomb = (file: string, entry: string, problem: string) => fileError(file, `zip entry '${entry}' ${problem} (a zip bomb?)`);

export const etlErrors = {
  // ETL_INPUT_INVALID: the request as a whole (group-files.ts)
  noFileUploaded: () => new EtlInputError('no file uploaded; send one file per schema group'),
  uploadWithoutFilename: () => new EtlInputError('an uploaded file has no filename'),
  twoFilesForGroup: (earlier: string, later: string, group: string) =>
    new EtlInputError(`files '${earlier}' and '${later}' are both for schema group '${group}'; send one file per group`, later),
  /** `extension` is the lower-cased extension, or '' when the name has none. */
  extensionUnsupported: (file: string, extension: string) =>
    fileError(file, `${extension === '' ? 'no extension' : `unsupported extension '.${extension}'`}; upload .csv, .json or .xlsx files`),
  fileNameWithoutStem: (file: string) => fileError(file, 'the file name has nothing before its extension, so it names no schema group'),

  // ETL_INPUT_INVALID: a file's text (decode-text.ts)
  fileEmpty: (file: string) => fileError(file, 'the file is empty'),
  fileOnlyWhitespace: (file: string) => fileError(file, 'the file is empty (only whitespace)'),
  fileUtf16: (file: string) => fileError(file, 'the file is UTF-16 encoded; save it as UTF-8'),
  fileNotUtf8: (file: string) => fileError(file, 'the file is not valid UTF-8 text (if it was saved as Latin-1 or Windows-1252, save it as UTF-8)'),
  fileBinary: (file: string) => fileError(file, 'the file holds binary data, not text'),

  // ETL_INPUT_INVALID: CSV and JSON files (`reason`: the parser's own words)
  csvUnreadable: (file: string, reason: string) => fileError(file, `not readable as CSV: ${reason}`),
  csvRecordTooLong: (file: string, maxChars: number) => fileError(file, `a CSV record is longer than the limit of ${maxChars} characters`),
  jsonInvalid: (file: string, reason: string) => fileError(file, `not valid JSON: ${reason}`),
  jsonRootNotRecords: (file: string) => fileError(file, 'the JSON root must be an array of records (or an object of table name -> array of records)'),
  jsonTableNotArray: (file: string, key: string) => fileError(file, `'${key}' must be an array of records`),

  // ETL_SCHEMA_MISMATCH: a JSON file's layout against its group
  jsonArrayForSeveralTables: (file: string, group: string, tables: readonly string[]) =>
    fileError(file, `group '${group}' has several tables (${tables.join(', ')}); send a JSON object with one array of records per table`, 'ETL_SCHEMA_MISMATCH'),
  jsonNoTableOfGroup: (file: string, group: string, tables: readonly string[]) =>
    fileError(file, `the JSON object has no array for any table of group '${group}' (${tables.join(', ')})`, 'ETL_SCHEMA_MISMATCH'),

  // ETL_INPUT_INVALID: workbooks (`reason`: the zip reader's own words)
  workbookUnreadable: (file: string, reason: string) => fileError(file, `not a readable XLSX workbook: ${reason}`),
  workbookEncrypted: (file: string) => fileError(file, 'the workbook is encrypted or password-protected'),
  sheetRowOutOfOrder: (file: string, sheet: string, reference: string) => fileError(file, `sheet '${sheet}' has a row numbered '${reference}' out of order`),
  sheetCellOutside: (file: string, sheet: string, reference: string) => fileError(file, `sheet '${sheet}' has a cell reference '${reference}' outside the worksheet`),

  // ETL_INPUT_INVALID: the upload's limits on work (cells, zip entries, inflated bytes)
  cellsOverLimit: (file: string, maxCells: number) => fileError(file, `the upload holds more than the limit of ${maxCells} cells`),
  zipEntriesOverLimit: (file: string, entries: number, maxEntries: number) =>
    fileError(file, `the workbook's zip archive has ${entries} entries, more than the limit of ${maxEntries}`),
  workbookExpandsOverLimit: (file: string, maxBytes: number) =>
    fileError(file, `the workbook expands to more than the limit of ${formatBytes(maxBytes)} uncompressed`),
  workbooksExpandOverLimit: (file: string, maxBytes: number) =>
    fileError(file, `the upload's workbooks expand to more than the limit of ${formatBytes(maxBytes)} uncompressed`),
  zipRatioOverLimit: (file: string, entry: string, maxRatio: number) => zipBomb(file, entry, `claims a compression ratio above ${maxRatio}:1`),
  zipEntryInflatesPastSize: (file: string, entry: string, declaredBytes: number) =>
    zipBomb(file, entry, `inflates to more than the ${declaredBytes} bytes it declares`),

  // UPLOAD_STRUCTURE_LIMIT
  /** `where` and `problem` are worded by the record and shape guards, which the request body shares. */
  structureLimit: structureError,
  sharedStringTooLong: (file: string, index: number, maxFieldBytes: number) =>
    structureError(file, `shared string ${index}`, `the string (or a run of text near it) is longer than the limit of ${formatBytes(maxFieldBytes)} (upload_max_field)`),
  sheetRowTooLong: (file: string, sheet: string, row: number, maxFieldBytes: number) =>
    structureError(file, `sheet '${sheet}', row ${row}`, `the row (or a cell or run of text in it) is longer than the limit of ${formatBytes(maxFieldBytes)} (upload_max_field)`),
  /** Text between rows, after row `row`, that no tag ends within the limit. */
  sheetTextTooLong: (file: string, sheet: string, row: number, maxFieldBytes: number) =>
    structureError(file, `sheet '${sheet}', after row ${row}`, `a run of text without a tag is longer than the limit of ${formatBytes(maxFieldBytes)} (upload_max_field)`),
};
