import { Link } from '@tanstack/react-router';
import { useSid } from '../session.ts';

/** A scenario's tag as a link to its page (overview, compare). */
export function ScenarioLink({ id, tag }: { id: string; tag: string }) {
  const sid = useSid();
  return (
    <Link to="/s/$sid/scenarios/$id" params={{ sid, id }} data-testid="scenario-link">
      {tag}
    </Link>
  );
}
