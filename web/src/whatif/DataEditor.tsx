import { useMemo, useState } from 'react';
import type { FieldError } from '../api/http.ts';
import type { Column } from '../api/types.ts';
import { cellText } from '../csv.ts';
import { AddRowForm } from './AddRowForm.tsx';
import { rowMatcher } from 'scenarist/edit-rules';
import { applyEdits, ruleColumns, type TableForm } from './apply-edits.ts';
import { ChangeRows, type RowsChange } from './ChangeRows.tsx';
import { EditableGrid } from './EditableGrid.tsx';
import { withCellValue, withoutEdit } from './edit-list.ts';
import type { Cell, Edit } from './edits.ts';
import { EditSentences } from './EditSentences.tsx';
import { FilterPanel } from './FilterPanel.tsx';
import { toWhere, type FilterCondition } from './filter.ts';
import { parseCell, whereOfRow } from './row-where.ts';

type Row = readonly unknown[];

/**
 * The data half of the what-if editor: the base dataset's tables (one shown at a time) with the edits
 * so far applied, a filter, one change for all filtered rows, cell edits, added and deleted rows, and
 * the edits as sentences. The edits are the state (the caller's); the grid is their preview.
 */
export function DataEditor({ base, keyColumns, edits, onEdits, errors, opening }: {
  base: Readonly<Record<string, TableForm>>;
  keyColumns: ReadonlyMap<string, readonly string[]>;
  edits: readonly Edit[];
  onEdits: (next: Edit[]) => void;
  errors: ReadonlyMap<number, readonly FieldError[]>;
  /** The table and filters the editor opens with (a violation's rows: explanations/row-filter.ts). */
  opening?: { table?: string; filters: Record<string, FilterCondition[]> };
}) {
  const names = Object.keys(base);
  const [chosen, setChosen] = useState(opening?.table ?? names[0] ?? '');
  const [filters, setFilters] = useState<Record<string, FilterCondition[]>>(opening?.filters ?? {});
  const [cellError, setCellError] = useState<string | null>(null);
  const preview = useMemo(() => applyEdits(base, edits), [base, edits]);
  const table = preview.tables[chosen];
  const conditions = useMemo(() => filters[chosen] ?? [], [filters, chosen]);
  const where = useMemo(() => (table ? toWhere(table.columns, conditions) : null), [table, conditions]);
  const shown = useMemo(() => {
    if (!table || !where?.ok || Object.keys(where.where).length === 0) return table?.rows ?? [];
    // The server's own matcher: the rows shown are the rows a change of them will edit.
    const matches = rowMatcher(where.where, ruleColumns(table.columns));
    return table.rows.filter((row) => matches(row as readonly Cell[]));
  }, [table, where]);
  const keys = keyColumns.get(chosen) ?? [];
  const rowName = (row: Row) => {
    if (!table) return 'row';
    const named = keys.length > 0 ? keys : [table.columns[0]?.name ?? ''];
    return named.map((k) => `${k} ${cellText(row[table.columns.findIndex((c) => c.name === k)])}`).join(', ');
  };

  const changeCell = (row: Row, column: Column, text: string) => {
    const parsed = parseCell(column, text);
    if (!parsed.ok) return setCellError(parsed.error);
    setCellError(null);
    onEdits(withCellValue(edits, chosen, whereOfRow(table!.columns, row, keys), column.name, parsed.value));
  };
  const changeRows = (change: RowsChange) => {
    if (!where?.ok) return;
    const update = 'scale' in change ? { where: where.where, scale: { [change.column]: change.scale } } : { where: where.where, set: { [change.column]: change.set } };
    onEdits([...edits, { table: chosen, update }]);
  };

  return (
    <section className="card" aria-labelledby="data-edit-title">
      <h2 id="data-edit-title" style={{ marginTop: 0 }}>
        Data
      </h2>
      {names.length > 1 && (
        <div className="row" role="tablist" aria-label="Tables" style={{ marginBottom: '0.5rem' }}>
          {names.map((n) => (
            <button key={n} type="button" role="tab" aria-selected={n === chosen} className={n === chosen ? 'primary' : ''} onClick={() => setChosen(n)}>
              {n} <span className="small">({preview.tables[n]!.rows.length.toLocaleString()})</span>
            </button>
          ))}
        </div>
      )}
      {table && (
        <div role="tabpanel" aria-label={chosen}>
          <FilterPanel
            columns={table.columns}
            conditions={conditions}
            onChange={(next) => setFilters((f) => ({ ...f, [chosen]: next }))}
            error={where && !where.ok ? where.error : null}
          />
          <ChangeRows columns={table.columns} matching={shown.length} onApply={changeRows} disabled={!where?.ok} />
          <p className="small muted" data-testid="shown-count">
            {shown.length.toLocaleString()} of {table.rows.length.toLocaleString()} rows shown
          </p>
          {cellError && (
            <p className="error-text" role="alert">
              {cellError}
            </p>
          )}
          <EditableGrid
            caption={`${chosen}: the rows shown, editable`}
            columns={table.columns}
            rows={shown}
            rowName={rowName}
            onCellChange={changeCell}
            onDeleteRow={(row) => onEdits([...edits, { table: chosen, delete: { where: whereOfRow(table.columns, row, keys) } }])}
          />
          <AddRowForm key={chosen} table={chosen} columns={table.columns} onAdd={(record) => onEdits([...edits, { table: chosen, insert: [record] }])} />
        </div>
      )}
      <h3>Edits</h3>
      <EditSentences edits={edits} rows={preview.rows} scaled={preview.scaled} errors={errors} onRemove={(index) => onEdits(withoutEdit(edits, index))} />
    </section>
  );
}
