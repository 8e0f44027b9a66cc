import type { operations } from 'scenarist/client';
import type { Api } from './client.ts';
import { unwrap } from './http.ts';
import type { Answer } from './types.ts';

/** The gate routes (docs/api/gates.md) through the API's typed client; types come from the generated schema. */

export type Gate = Answer<'getSessionsBySidGatesByGid', 200>;
export type GateSummary = Answer<'getSessionsBySidGates', 200>['items'][number];
export type GateKpi = NonNullable<Gate['kpis']>[number];
export type NewGate = NonNullable<operations['postSessionsBySidGates']['requestBody']>['content']['application/json'];

export const gateKeys = {
  all: (sid: string) => ['gates', sid] as const,
  one: (sid: string, gid: string) => ['gates', sid, gid] as const,
};

/** The session's gates, oldest first (a page holds 500; a session keeps few). */
export const listGates = async ({ http, config }: Api, sid: string): Promise<GateSummary[]> =>
  (await unwrap(config, http.GET('/sessions/{sid}/gates', { params: { path: { sid }, query: { limit: 500 } } }))).items;

export const gate = ({ http, config }: Api, sid: string, gid: string): Promise<Gate> =>
  unwrap(config, http.GET('/sessions/{sid}/gates/{gid}', { params: { path: { sid, gid } } }));

export const createGate = ({ http, config }: Api, sid: string, body: NewGate) => unwrap(config, http.POST('/sessions/{sid}/gates', { params: { path: { sid } }, body }));

export const deleteGate = ({ http, config }: Api, sid: string, gid: string) => unwrap(config, http.DELETE('/sessions/{sid}/gates/{gid}', { params: { path: { sid, gid } } }));

/** Freezes a complete gate's verdict as a report (409 GATE_RUNNING while a run of it is queued or running). */
export const saveGateReport = ({ http, config }: Api, sid: string, gid: string, body: { title: string; note?: string }) =>
  unwrap(config, http.POST('/sessions/{sid}/gates/{gid}/reports', { params: { path: { sid, gid } }, body }));
