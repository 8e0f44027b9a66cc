import type { ReactNode } from 'react';

/**
 * A table in the dashboard's plain style, in a box that scrolls sideways on a narrow screen: one
 * heading per column, then the rows the caller draws.
 */
export function ScrollTable({ headings, className = 'plain', label, testId, children }: {
  /** The column headings in order (a column's heading may carry a note beside its name). */
  headings: readonly ReactNode[];
  className?: string;
  /** Names the scroll box and makes it focusable, so a keyboard can scroll a wide table. */
  label?: string;
  testId?: string;
  /** The table's rows (`<tr>` elements). */
  children: ReactNode;
}) {
  const region = label === undefined ? {} : { tabIndex: 0, role: 'region', 'aria-label': label };
  return (
    <div className="table-scroll" {...region}>
      <table className={className} data-testid={testId}>
        <thead>
          <tr>
            {headings.map((heading, column) => (
              // The columns are fixed for a render: their place is their identity.
              <th key={column} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
