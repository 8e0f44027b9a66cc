/** The separators of a CSV file, detected from its header line. */
export interface CsvDialect {
  readonly delimiter: ',' | ';' | '\t';
  /** `\r` for classic Mac files; otherwise both `\r\n` and `\n` end a record (files mixing them are common). */
  readonly recordDelimiters: readonly string[];
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const CANDIDATES = [',', ';', '\t'] as const;

/**
 * Picks the delimiter that occurs most often in the header line outside quotes (ties: `,` then `;` then
 * tab; none at all: `,`, a one-column file), and the line ending that ends the header line.
 */
export function detectDialect(text: string): CsvDialect {
  const counts = [0, 0, 0];
  let quoted = false;
  let at = 0;
  for (; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) quoted = !quoted; // an escaped quote ("") toggles twice
    else if (quoted) continue;
    else if (c === LF || c === CR) break;
    else {
      const index = CANDIDATES.indexOf(text[at] as (typeof CANDIDATES)[number]);
      if (index >= 0) counts[index]!++;
    }
  }
  let best = 0;
  for (let i = 1; i < CANDIDATES.length; i++) if (counts[i]! > counts[best]!) best = i;
  const loneCr = text.charCodeAt(at) === CR && text.charCodeAt(at + 1) !== LF;
  return { delimiter: CANDIDATES[best]!, recordDelimiters: loneCr ? ['\r'] : ['\r\n', '\n'] };
}
