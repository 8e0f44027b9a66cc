import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';

/** Which way a box can still scroll sideways (none while its content fits). */
interface Overflow {
  readonly left: boolean;
  readonly right: boolean;
}

const FITS: Overflow = { left: false, right: false };

/** Follows a box's sideways overflow as it is resized, its content changes, or it is scrolled. */
function useOverflow(box: RefObject<HTMLDivElement | null>): Overflow {
  const [overflow, setOverflow] = useState<Overflow>(FITS);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      // A pixel of slack: a table a fraction of a pixel wider than its box does not scroll in practice.
      const hidden = element.scrollWidth - element.clientWidth;
      const next = { left: hidden > 1 && element.scrollLeft > 1, right: hidden > 1 && element.scrollLeft < hidden - 1 };
      setOverflow((now) => (now.left === next.left && now.right === next.right ? now : next));
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [box]);
  return overflow;
}

/**
 * A table in the dashboard's plain style, in a box that scrolls sideways on a narrow screen: one
 * heading per column, then the rows the caller draws. While the table is wider than its box, a line
 * above it says so, a shade marks each side with more columns, and the box takes the keyboard's focus
 * (arrow keys scroll it); a table that fits shows none of these.
 */
export function ScrollTable({ headings, className = 'plain', label, testId, children }: {
  /** The column headings in order (a column's heading may carry a note beside its name). */
  headings: readonly ReactNode[];
  className?: string;
  /** Names the scroll box (a region), so a keyboard user knows what the arrow keys scroll; "Wide table" when not given. */
  label?: string;
  testId?: string;
  /** The table's rows (`<tr>` elements). */
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const overflow = useOverflow(box);
  const scrolls = overflow.left || overflow.right;
  // While it scrolls, the box is a named region in the tab order (arrow keys then scroll it); a table
  // the caller did not name is named by what the box does.
  const region = scrolls
    ? { role: 'region', 'aria-label': label ?? 'Wide table', tabIndex: 0, 'aria-describedby': hintId }
    : label === undefined
      ? {}
      : { role: 'region', 'aria-label': label };
  return (
    <div className="scroll-frame">
      {scrolls && (
        <p id={hintId} className="scroll-hint small muted" data-testid="scroll-hint">
          {overflow.right ? 'More columns to the right: scroll sideways →' : '← More columns to the left'}
        </p>
      )}
      <div className="scroll-shade" data-more-left={overflow.left || undefined} data-more-right={overflow.right || undefined}>
        <div ref={box} className="table-scroll" {...region}>
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
      </div>
    </div>
  );
}
