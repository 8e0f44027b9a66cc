/** The slice of an exceljs worksheet the XLSX reader uses (STYLE: declare only what is used). */
export interface XlsxSheet {
  readonly name: string;
  /** Number of the last row (rows are numbered from 1). */
  readonly rowCount: number;
  readonly columnCount: number;
  /** Cell values by row number, each row by column number (both from 1); sparse where rows are empty. */
  values(): readonly unknown[];
}

/**
 * Loads a workbook from memory. Call only on bytes that passed `guardZip`: exceljs inflates everything.
 * exceljs is imported on first use: it takes ~200 ms to load, which neither server start-up nor a
 * CSV-only upload should pay.
 */
export async function loadWorkbook(data: Buffer): Promise<XlsxSheet[]> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  // exceljs declares its own `Buffer` (an ArrayBuffer); at run time it hands the bytes to JSZip, which takes a Node Buffer.
  await workbook.xlsx.load(data as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  return workbook.worksheets.map((sheet) => ({
    name: sheet.name,
    rowCount: sheet.rowCount,
    columnCount: sheet.columnCount,
    values: () => sheet.getSheetValues(),
  }));
}
