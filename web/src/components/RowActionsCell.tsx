/** One button of a list row's actions: its text, the name a screen reader hears (it names the row), what it does. */
export interface RowAction {
  label: string;
  accessibleName: string;
  onClick: () => void;
  /** A destructive action (delete) looks like one. */
  danger?: boolean;
}

/** The last cell of a list row: its actions side by side, each naming its row for assistive technology. */
export function RowActionsCell({ actions }: { actions: readonly RowAction[] }) {
  return (
    <td>
      <div className="row">
        {actions.map((action) => (
          <button key={action.label} type="button" className={action.danger ? 'danger' : undefined} onClick={action.onClick} aria-label={action.accessibleName}>
            {action.label}
          </button>
        ))}
      </div>
    </td>
  );
}
