import type { EtlResult } from '../api/types.ts';

/** The ETL outcome: success or not, and every message located by file, table, column and row. */
export function EtlReport({ result }: { result: EtlResult }) {
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
        <div className="table-scroll" tabIndex={0} role="region" aria-label="ETL messages">
          <table className="plain">
            <thead>
              <tr>
                <th scope="col">Severity</th>
                <th scope="col">File</th>
                <th scope="col">Table</th>
                <th scope="col">Column</th>
                <th scope="col" className="num">Row</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
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
                  <td className="num">{m.row ?? ''}</td>
                  <td>{m.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
