import type { EtlResult, SchemaGroup } from '../api/types.ts';
import { useRowPlaces } from '../data/row-places.ts';
import { ScrollTable } from './ScrollTable.tsx';

/**
 * The ETL outcome: success or not, and every message located by file, table, column and row; a row
 * also by its line in the file and, for a CSV file the page still holds, its key.
 */
export function EtlReport({ result, files = [], groups }: { result: EtlResult; files?: readonly File[]; groups?: readonly SchemaGroup[] }) {
  const places = useRowPlaces(result, files, groups);
  const errors = result.messages.filter((m) => m.severity === 'error').length;
  const warnings = result.messages.filter((m) => m.severity === 'warning').length;
  return (
    <section aria-label="ETL report" data-testid="etl-report">
      <div className={`alert ${result.success ? 'ok' : 'error'}`} role="status">
        {result.success
          ? `Dataset “${result.dataset_name}” loaded (${result.keys.join(', ')}).`
          : `Dataset “${result.dataset_name}” was not loaded.`}{' '}
        {errors} error{errors === 1 ? '' : 's'}, {warnings} warning{warnings === 1 ? '' : 's'}.
      </div>
      {result.messages.length > 0 && (
        <ScrollTable label="ETL messages" headings={['Severity', 'File', 'Table', 'Column', 'Row', 'Message']}>
          {result.messages.map((m, i) => (
            <tr key={i}>
              <td>
                <span className="badge" data-status={m.severity === 'error' ? 'FAILED' : m.severity === 'warning' ? 'QUEUED' : 'CREATED'}>
                  {m.severity}
                </span>
              </td>
              <td>{m.file ?? ''}</td>
              <td>{m.table ?? ''}</td>
              <td>{m.column ?? ''}</td>
              <td data-testid="etl-row">
                {m.row ?? ''}
                {places.has(i) && <RowPlaceText place={places.get(i)!} />}
              </td>
              <td>{m.message}</td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

function RowPlaceText({ place }: { place: { line: string; key?: string } }) {
  return (
    <span className="muted small number" data-testid="etl-row-place">
      {' '}
      ({place.line}
      {place.key !== undefined && `, key ${place.key}`})
    </span>
  );
}
