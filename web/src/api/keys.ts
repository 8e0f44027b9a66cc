/** TanStack Query keys, in one place so live updates invalidate exactly what they change. */
export const keys = {
  sessions: ['sessions'] as const,
  scenarios: (sid: string) => ['scenarios', sid] as const,
  scenario: (sid: string, id: string) => ['scenario', sid, id] as const,
  logs: (sid: string, id: string) => ['logs', sid, id] as const,
  /** A scenario's lineage (its chain and branches); `lineage(sid)` is every lineage of the session. */
  lineage: (sid: string, ...id: string[]) => ['lineage', sid, ...id] as const,
  datasets: (sid: string) => ['datasets', sid] as const,
  dataset: (sid: string, key: string) => ['dataset', sid, key] as const,
  /** Under `datasets(sid)`: a dataset event refetches it with the list. */
  datasetLineage: (sid: string, key: string) => ['datasets', sid, 'lineage', key] as const,
  dataParameters: (sid: string, key: string) => ['data-parameters', sid, key] as const,
  algorithms: (sid: string) => ['algorithms', sid] as const,
  algorithmParameters: (sid: string, name: string) => ['algorithm-parameters', sid, name] as const,
  kpis: (sid: string) => ['kpis', sid] as const,
  schemas: (sid: string) => ['schemas', sid] as const,
  health: ['health'] as const,
  experiments: (sid: string) => ['experiments', sid] as const,
  experiment: (sid: string, eid: string) => ['experiments', sid, eid] as const,
  compare: (sid: string) => ['compare', sid] as const,
  /** The published plan and its history (web/src/api/decisions.ts). */
  plan: (sid: string) => ['plan', sid] as const,
  reports: (sid: string) => ['reports', sid] as const,
  report: (sid: string, rid: string) => ['reports', sid, rid] as const,
  audit: (sid: string) => ['audit', sid] as const,
  /** Views: `views(sid, 'scenario', id)`, `views(sid, 'dataset', key)`, `views(sid, 'compare')`, or all of a session. */
  views: (sid: string, ...of: string[]) => ['views', sid, ...of] as const,
};
