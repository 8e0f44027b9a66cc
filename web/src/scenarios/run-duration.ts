import type { Scenario } from '../api/types.ts';

type RunTimes = Pick<Scenario, 'started_at' | 'finished_at'>;

/** How long the latest run took (or has taken so far, while it runs), in ms; null before it started. */
export function runDuration(s: RunTimes, now = Date.now()): number | null {
  if (!s.started_at) return null;
  const start = Date.parse(s.started_at);
  const end = s.finished_at ? Date.parse(s.finished_at) : now;
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

/** A duration to read closely (the scenario page): hundredths of a second under ten seconds. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** A finished run's duration at a glance (a card), e.g. `42 s` or `3 min 5 s`; null until the run has finished. */
export function finishedRunDuration(s: RunTimes): string | null {
  if (!s.started_at || !s.finished_at) return null;
  const ms = Date.parse(s.finished_at) - Date.parse(s.started_at);
  if (!Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
