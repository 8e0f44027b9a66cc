import type { RenderedView, ViewKind } from '../api/views.ts';

/** A view as a report froze it: drawn (kind and spec, a table with every row), or the failure that kept it from drawing. */
export type FrozenView = RenderedView | { name: string; title: string; kind: ViewKind; error: string };

const KINDS: readonly string[] = ['table', 'chart', 'metrics', 'text'] satisfies ViewKind[];

/**
 * The report's views are typed loosely by the API (any JSON: as `GET .../views/{name}` answered then);
 * this takes what has a view's outline and drops anything else, so a page never renders a shape it
 * does not know.
 */
export function asFrozenView(value: unknown): FrozenView | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.name !== 'string' || typeof v.kind !== 'string' || !KINDS.includes(v.kind)) return null;
  const title = typeof v.title === 'string' ? v.title : v.name;
  if (typeof v.error === 'string') return { name: v.name, title, kind: v.kind as ViewKind, error: v.error };
  if (typeof v.spec !== 'object' || v.spec === null) return null;
  return { ...(v as object), title } as RenderedView;
}

export const frozenViews = (values: readonly unknown[]): FrozenView[] => values.map(asFrozenView).filter((v): v is FrozenView => v !== null);
