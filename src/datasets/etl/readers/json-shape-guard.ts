import { formatBytes } from '../format-bytes.js';
import type { ShapeFailure, ShapeGuard } from './shape-guard.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LF = 0x0a;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Deeper than this, a JSON upload is not a table of records (nested child tables go a few levels down). */
export const MAX_JSON_DEPTH = 100;

export interface JsonShapeLimits {
  /** Longest string, in bytes of its JSON text. */
  readonly maxStringBytes: number;
  /** Deepest nesting of arrays and objects. */
  readonly maxDepth: number;
}

/**
 * Checks a JSON text's strings and nesting before it is parsed: no string longer than `maxStringBytes`,
 * no nesting deeper than `maxDepth`. It does not validate JSON (the parse does); it only makes sure that a
 * 500 MB string or a million open brackets fail after reading what the limit allows, in linear time.
 */
export class JsonShapeGuard implements ShapeGuard {
  private inString = false;
  private escaped = false;
  private stringBytes = 0;
  private stringLine = 1;
  private depth = 0;
  private line = 1;

  constructor(
    private readonly limits: JsonShapeLimits,
    private readonly fail: ShapeFailure,
  ) {}

  feed(bytes: Uint8Array): void {
    const { maxStringBytes, maxDepth } = this.limits;
    for (let at = 0; at < bytes.length; at++) {
      const c = bytes[at]!;
      if (this.inString) {
        if (++this.stringBytes > maxStringBytes) {
          throw this.fail(`line ${this.stringLine}`, `a JSON string is longer than the limit of ${formatBytes(maxStringBytes)} (upload_max_field)`);
        }
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        else if (c === LF) this.line++;
      } else if (c === QUOTE) {
        this.inString = true;
        this.stringBytes = 0;
        this.stringLine = this.line;
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (++this.depth > maxDepth) throw this.fail(`line ${this.line}`, `the JSON nests deeper than ${maxDepth} levels`);
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        this.depth--;
      } else if (c === LF) {
        this.line++;
      }
    }
  }
}
