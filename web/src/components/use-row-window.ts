import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

/**
 * The rows of a long table that are in view, for a grid that puts only those in the DOM: the viewport
 * to attach to the scrolling element, the visible items, and the heights to pad above and below them so
 * the scrollbar spans every row.
 */
export function useRowWindow(count: number, rowHeight: number, overscan: number) {
  const viewport = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => viewport.current,
    estimateSize: () => rowHeight,
    overscan,
    // First paint has no layout yet: still render a first screenful.
    initialRect: { width: 1000, height: 420 },
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  return { viewport, items, padTop, padBottom };
}
