import { etlErrors } from './error-factories.js';

/** `fatal` so that Latin-1 or Windows-1252 bytes fail loudly instead of turning into U+FFFD silently. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Control characters that never occur in a text table (everything below U+0020 except tab, LF, VT, FF,
 * CR, and U+001A that old DOS tools append). Finding one means the bytes are not text.
 */
// eslint-disable-next-line no-control-regex
const BINARY_CHAR = /[\u0000-\u0008\u000e-\u0019\u001b-\u001f]/;

/**
 * The text of an uploaded CSV or JSON file: strict UTF-8 with an optional BOM (removed). Throws an
 * `EtlInputError` naming the file when the bytes are empty, whitespace only, not UTF-8, or binary.
 */
export function decodeText(file: string, data: Uint8Array): string {
  if (data.length === 0) throw etlErrors.fileEmpty(file);
  if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
    throw etlErrors.fileUtf16(file);
  }
  let text: string;
  try {
    // The decoder drops a leading UTF-8 BOM itself (ignoreBOM is false by default).
    text = utf8.decode(data);
  } catch {
    throw etlErrors.fileNotUtf8(file);
  }
  if (BINARY_CHAR.test(text)) throw etlErrors.fileBinary(file);
  if (!/\S/.test(text)) throw etlErrors.fileOnlyWhitespace(file);
  return text;
}
