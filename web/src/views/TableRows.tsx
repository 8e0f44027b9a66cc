import type { TableSpec } from '../api/views.ts';
import { formatCell, isNumeric } from './cells.ts';

/**
 * The body of a table view: each row's cells formatted by their column (`cells.ts`), numbers aligned
 * as numbers. `firstIndex` is the first row's place in the whole table, which keys the rows of a page.
 */
export function TableRows({ spec, firstIndex = 0 }: { spec: Pick<TableSpec, 'columns' | 'rows'>; firstIndex?: number }) {
  return (
    <tbody>
      {spec.rows.map((row, r) => (
        <tr key={firstIndex + r}>
          {spec.columns.map((c, i) => (
            <td key={c.name} className={isNumeric(c) ? 'num' : undefined}>
              {formatCell(row[i] ?? null, c)}
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}
