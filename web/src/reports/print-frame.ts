/**
 * The running header and page numbers of a printed report, as an `@page` rule: the report's title top
 * left and "Scenarist report" top right of every page, "Page n of m" bottom right. Chromium prints CSS
 * page-margin boxes since version 131 (Firefox and Safari print the document without them). A margin box
 * takes only strings and counters, not an element's text, so the title is written into the rule.
 */
export function printFrameCss(title: string): string {
  return [
    '@media print {',
    '  @page {',
    `    @top-left { content: ${cssString(title)}; font: 9pt system-ui, sans-serif; color: #3d4650; }`,
    `    @top-right { content: "Scenarist report"; font: 9pt system-ui, sans-serif; color: #3d4650; }`,
    '    @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 9pt system-ui, sans-serif; color: #3d4650; }',
    '  }',
    '}',
  ].join('\n');
}

/**
 * A CSS string literal of any text: quotes and backslashes escaped, and every character that could end
 * the rule or the style element (a line break, `<`, `>`, `{`, `}`, `;`) written as its code point.
 */
export function cssString(text: string): string {
  const escaped = [...text]
    .map((c) => (c === '"' || c === '\\' ? `\\${c}` : /[\n\r\f<>{};]/.test(c) || c.charCodeAt(0) < 0x20 ? `\\${c.codePointAt(0)!.toString(16)} ` : c))
    .join('');
  return `"${escaped}"`;
}
