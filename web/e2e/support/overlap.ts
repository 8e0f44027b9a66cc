import type { Locator } from 'playwright-core';

/** Pairs of the matched elements whose boxes on the page overlap (e.g. chart labels printed over each other), by their text. */
export async function overlappingPairs(elements: Locator): Promise<string[]> {
  const boxes = await elements.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { text: el.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }),
  );
  const pairs: string[] = [];
  boxes.forEach((a, i) =>
    boxes.slice(i + 1).forEach((b) => {
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) pairs.push(`${a.text} / ${b.text}`);
    }),
  );
  return pairs;
}
