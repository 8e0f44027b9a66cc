import { useState } from 'react';

/**
 * Seconds left, from the rate of completion seen since this page first saw the experiment unfinished:
 * null until at least one run has finished meanwhile (no rate yet) or when nothing is left.
 */
function etaSeconds(first: { at: number; done: number }, now: { at: number; done: number }, total: number): number | null {
  const finished = now.done - first.done;
  const elapsed = (now.at - first.at) / 1000;
  if (now.done >= total || finished <= 0 || elapsed <= 0) return null;
  return ((total - now.done) * elapsed) / finished;
}

/** The ETA of an experiment as its counts arrive (the first sample is kept across renders). */
export function useEta(done: number, total: number, at: number): number | null {
  const [first, setFirst] = useState({ at, done });
  // A reset starts the count again: so does the rate.
  if (done < first.done) setFirst({ at, done });
  return etaSeconds(first, { at, done }, total);
}

export function etaText(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  return `about ${(seconds / 3600).toFixed(1)} h left`;
}
