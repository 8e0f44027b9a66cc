import { Link } from '@tanstack/react-router';
import { nameOf, type ActivityPhrase, type Named } from './activity-phrases.ts';

/**
 * An Activity entry's sentence: a scenario, experiment, report or gate still in the session as a link to its
 * page, named; something deleted since as such; then the reason given, quoted.
 */
export function ActivitySentence({ sid, phrase }: { sid: string; phrase: ActivityPhrase }) {
  return (
    <>
      {phrase.pieces.map((piece, i) => (typeof piece === 'string' ? <span key={i}>{piece}</span> : <Thing key={i} sid={sid} thing={piece} />))}
      {phrase.reason && (
        <>
          : <span className="activity-reason">“{phrase.reason}”</span>
        </>
      )}
    </>
  );
}

function Thing({ sid, thing }: { sid: string; thing: Named }) {
  const text = nameOf(thing);
  if (thing.gone) return <span className="muted">{text}</span>;
  if (thing.kind === 'scenario') {
    return (
      <Link to="/s/$sid/scenarios/$id" params={{ sid, id: thing.id }}>
        <strong>{text}</strong>
      </Link>
    );
  }
  if (thing.kind === 'experiment') {
    return (
      <Link to="/s/$sid/experiments/$eid" params={{ sid, eid: thing.id }}>
        <strong>{text}</strong>
      </Link>
    );
  }
  if (thing.kind === 'gate') {
    return (
      <Link to="/s/$sid/gates/$gid" params={{ sid, gid: thing.id }}>
        <strong>{text}</strong>
      </Link>
    );
  }
  if (thing.kind === 'schedule') {
    return (
      <Link to="/s/$sid/schedules/$schid" params={{ sid, schid: thing.id }}>
        <strong>{text}</strong>
      </Link>
    );
  }
  if (thing.kind === 'report') {
    return (
      <Link to="/s/$sid/reports/$rid" params={{ sid, rid: thing.id }}>
        <strong>{text}</strong>
      </Link>
    );
  }
  return <strong>{text}</strong>;
}
