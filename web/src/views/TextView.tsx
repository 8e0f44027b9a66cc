import type { TextSpec } from '../api/views.ts';
import { Markdown } from './markdown.tsx';

/** A text view: its markdown, rendered as elements (any HTML in it is shown as text). */
export function TextView({ spec }: { spec: TextSpec }) {
  return (
    <div data-testid="text-view">
      <Markdown source={spec.markdown} />
    </div>
  );
}
