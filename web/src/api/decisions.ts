import type { operations } from 'scenarist/client';
import type { Api } from './client.ts';
import { unwrap } from './http.ts';

/**
 * The decision routes (docs/api/plans-and-reports.md, docs/api/audit.md): the session's published plan,
 * its reports, and its audit trail, through the API's typed client. Types come from the generated schema.
 */
type Json<Op extends keyof operations, Code extends keyof operations[Op]['responses']> = operations[Op]['responses'][Code] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;

export type SessionPlan = Json<'getSessionsBySidPlan', 200>;
export type Plan = NonNullable<SessionPlan['current']>;
export type Actor = Plan['published_by'];
/** A report as saved: a frozen comparison, or a gate's frozen verdict (`kind: 'gate'`, docs/api/gates.md). */
export type SavedReport = Json<'getSessionsBySidReportsByRid', 200>;
export type GateReport = Extract<SavedReport, { kind: 'gate' }>;
/** A frozen comparison (Compare's "Save as report"). */
export type Report = Exclude<SavedReport, GateReport>;
/** Which of the two a saved report is (a comparison's body has no `kind`). */
export const isGateReport = (report: SavedReport): report is GateReport => 'kind' in report && report.kind === 'gate';
export type ReportSummary = Json<'getSessionsBySidReports', 200>['items'][number];
export type AuditPage = Json<'getSessionsBySidAudit', 200>;
export type AuditEntry = AuditPage['entries'][number];
export type NewReport = NonNullable<operations['postSessionsBySidReports']['requestBody']>['content']['application/json'];

/** What Activity filters on: an action (`scenario.run`) and who (a token's name or id, `local`). */
export interface AuditFilter {
  action?: string;
  who?: string;
}

const sessionAt = (sid: string) => ({ params: { path: { sid } } });

export const plan = ({ http, config }: Api, sid: string) => unwrap(config, http.GET('/sessions/{sid}/plan', sessionAt(sid)));

export const publishPlan = ({ http, config }: Api, sid: string, id: string, note: string) =>
  unwrap(config, http.POST('/sessions/{sid}/scenarios/{id}/publish', { params: { path: { sid, id } }, body: { note } }));

export const withdrawPlan = ({ http, config }: Api, sid: string, note: string) =>
  unwrap(config, http.DELETE('/sessions/{sid}/plan', { ...sessionAt(sid), body: { note } }));

export const createReport = ({ http, config }: Api, sid: string, body: NewReport) =>
  unwrap(config, http.POST('/sessions/{sid}/reports', { ...sessionAt(sid), body }));

/** Every report of the session, following `next_cursor` (a session keeps few; a page holds 500). */
export async function listReports({ http, config }: Api, sid: string): Promise<ReportSummary[]> {
  const all: ReportSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(config, http.GET('/sessions/{sid}/reports', { params: { path: { sid }, query: { limit: 500, cursor } } }));
    all.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return all;
}

/** The report as saved; without `format` the route answers JSON (the schema also lists the workbook). */
export const report = ({ http, config }: Api, sid: string, rid: string): Promise<SavedReport> =>
  unwrap(config, http.GET('/sessions/{sid}/reports/{rid}', { params: { path: { sid, rid } } })) as Promise<SavedReport>;

export const reportWorkbook = ({ http, config }: Api, sid: string, rid: string): Promise<Blob> =>
  unwrap(config, http.GET('/sessions/{sid}/reports/{rid}', { params: { path: { sid, rid }, query: { format: 'xlsx' } }, parseAs: 'blob' }));

/** One page of the session's audit trail, newest first; `cursor` is the previous page's `next_cursor`. */
export const auditPage = ({ http, config }: Api, sid: string, filter: AuditFilter, limit: number, cursor?: string): Promise<AuditPage> =>
  unwrap(config, http.GET('/sessions/{sid}/audit', { params: { path: { sid }, query: { limit, cursor, ...filter } } })) as Promise<AuditPage>;

/** Every entry the filter matches, as the server's CSV (streamed by the server, saved whole here). */
export const auditCsv = ({ http, config }: Api, sid: string, filter: AuditFilter): Promise<Blob> =>
  unwrap(config, http.GET('/sessions/{sid}/audit', { params: { path: { sid }, query: { format: 'csv', ...filter } }, parseAs: 'blob' }));
