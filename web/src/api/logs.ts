import type { paths } from 'scenarist/client';

/** `GET /sessions/{sid}/scenarios/{id}/logs`: the last 1,000 log lines of the latest run and, for a run that threw, its error. */
export type RunLogs = paths['/sessions/{sid}/scenarios/{id}/logs']['get']['responses']['200']['content']['application/json'];
export type LogLine = RunLogs['lines'][number];
export type LogLevel = LogLine['level'];
