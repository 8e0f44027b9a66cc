import type { Cell, ColumnType } from '../../domain/dataset-model.js';
import { formatExcelDate, parseIsoDateTime } from './datetime.js';
import { BadCell, type RawCell } from './readers/reader.js';

/** Why a value does not fit its column; shared instances keep the per-cell path allocation-free. */
export class Invalid {
  constructor(readonly reason: string) {}
}

export type PresentCell = Exclude<RawCell, null | undefined>;
export type Coercer = (raw: PresentCell) => Cell | Invalid;

/** Empty: missing, or text that is empty or only whitespace. */
export function isEmptyCell(raw: RawCell): raw is null | undefined | string {
  if (raw === null || raw === undefined) return true;
  if (typeof raw !== 'string') return false;
  // Only text starting with whitespace can be blank; test that before trimming.
  return raw.length === 0 || (raw.charCodeAt(0) <= 0x20 && raw.trim().length === 0);
}

const NOT_INTEGER = new Invalid('expected a whole number such as 12');
const UNSAFE_INTEGER = new Invalid('a whole number beyond ±9007199254740991 cannot be stored exactly');
const NOT_FLOAT = new Invalid('expected a number such as 1.5 (or 1,5)');
const AMBIGUOUS_COMMA = new Invalid('ambiguous: the comma may separate thousands or decimals; write it as 1234 or 1.234');
const NOT_BOOLEAN = new Invalid('expected true/false, yes/no or 1/0');
const NOT_DATETIME = new Invalid('expected an ISO 8601 date or date-time such as 2024-01-31 or 2024-01-31T08:30:00Z');
const NUMBER_NOT_DATETIME = new Invalid(`${NOT_DATETIME.reason}; numbers are not read as dates (format the Excel cells as dates)`);
const BAD_DATE = new Invalid('an invalid date');

/** `12`, `-3`, `+4`, and `12.0` (integers that went through a float column in another tool). */
const INTEGER_TEXT = /^[+-]?\d+(?:\.0*)?$/;
const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DECIMAL_COMMA_TEXT = /^[+-]?(\d+),(\d+)$/;
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ['true', true], ['false', false], ['yes', true], ['no', false], ['1', true], ['0', false],
]);

const integer: Coercer = (raw) => {
  if (typeof raw === 'string') {
    const text = raw.trim();
    return INTEGER_TEXT.test(text) ? safeInteger(Number(text)) : NOT_INTEGER;
  }
  if (typeof raw === 'number') return Number.isInteger(raw) ? safeInteger(raw) : NOT_INTEGER;
  return otherwise(raw, NOT_INTEGER);
};

function safeInteger(value: number): number | Invalid {
  return Number.isSafeInteger(value) ? value : UNSAFE_INTEGER;
}

/**
 * A decimal comma (`1,5`, as European spreadsheets write it) is read only when unambiguous: exactly one
 * comma and no point, and not 1 to 3 digits (not starting with 0) then exactly 3 digits, which could as
 * well be a thousands separator (`1,234`). Thousands separators themselves are not accepted.
 */
const float: Coercer = (raw) => {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : NOT_FLOAT;
  if (typeof raw !== 'string') return otherwise(raw, NOT_FLOAT);
  const text = raw.trim();
  if (FLOAT_TEXT.test(text)) return finite(Number(text));
  const comma = DECIMAL_COMMA_TEXT.exec(text);
  if (!comma) return NOT_FLOAT;
  const [, whole = '', fraction = ''] = comma;
  if (fraction.length === 3 && whole.length <= 3 && whole[0] !== '0') return AMBIGUOUS_COMMA;
  return finite(Number(text.replace(',', '.')));
};

function finite(value: number): number | Invalid {
  return Number.isFinite(value) ? value : NOT_FLOAT;
}

const boolean: Coercer = (raw) => {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number') return raw === 1 ? true : raw === 0 ? false : NOT_BOOLEAN;
  if (typeof raw === 'string') return BOOLEANS.get(raw.trim().toLowerCase()) ?? NOT_BOOLEAN;
  return otherwise(raw, NOT_BOOLEAN);
};

const datetime: Coercer = (raw) => {
  if (typeof raw === 'string') return parseIsoDateTime(raw.trim()) ?? NOT_DATETIME;
  if (raw instanceof Date) return formatExcelDate(raw) ?? BAD_DATE;
  if (typeof raw === 'number') return NUMBER_NOT_DATETIME;
  return otherwise(raw, NOT_DATETIME);
};

/** Text is kept as written (not trimmed); numbers and booleans become their text, dates ISO text. */
const string: Coercer = (raw) => {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (raw instanceof Date) return formatExcelDate(raw) ?? BAD_DATE;
  return new Invalid(raw.problem);
};

/** The common tail: a `BadCell` says what it is; anything else (a date, a boolean) is the wrong kind. */
function otherwise(raw: PresentCell, wrongKind: Invalid): Invalid {
  return raw instanceof BadCell ? new Invalid(raw.problem) : wrongKind;
}

export const COERCERS: Readonly<Record<ColumnType, Coercer>> = { string, integer, float, boolean, datetime };
