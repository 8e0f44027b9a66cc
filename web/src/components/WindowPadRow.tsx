/**
 * The empty row that stands for the rows a windowed grid leaves out of the DOM above or below the
 * ones in view (`use-row-window.ts`), so the scrollbar spans every row. Nothing when nothing is left out.
 */
export function WindowPadRow({ height, span }: { height: number; span: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true">
      <td style={{ height, padding: 0, border: 0 }} colSpan={span} />
    </tr>
  );
}
