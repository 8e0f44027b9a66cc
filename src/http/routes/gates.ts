import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../auth/actor.js';
import { decodeCursor, encodeCursor } from '../../model/list-cursor.js';
import { SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { queryValidatorCompiler } from '../query-validator.js';
import { BatchResult, ListedErrorBody } from './experiment-schemas.js';
import { CreateGate, Gate, GateDetail, GatePage, GateReportSchema, NewGateReport } from './gate-schemas.js';

const tags = ['gates'];
const GateParams = Type.Intersect([SessionParams, Type.Object({ gid: Type.String({ description: 'gate id' }) })]);
/** The cursor of the gate list names this sort, so another list's cursor is refused. */
const CURSOR_SORT = 'gates';

/** `/sessions/{sid}/gates...`: acceptance gates, paired runs of a baseline and a candidate with a verdict per KPI. */
export const gateRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, gates } = services;
  const sessionOf = async (sid: string) => (await sessions.resolve(sid)).id;

  app.post(
    '/sessions/:sid/gates',
    {
      config: {
        errors: ['PARAMETER_INVALID', 'GATE_INVALID', 'DATASET_NOT_FOUND', 'ALGORITHM_NOT_FOUND', 'GATE_NAME_TAKEN', 'GATE_TOO_LARGE'],
        audit: { action: 'gate.create' },
      },
      schema: {
        summary: 'Create a gate: paired runs (same dataset and seed) of a baseline and a candidate, queued at once, all or nothing',
        description: 'Validated whole first; nothing is stored when anything is invalid.',
        tags,
        params: SessionParams,
        body: CreateGate,
        response: { 201: Gate, 400: ListedErrorBody, 404: ListedErrorBody },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const side = (s: typeof body.baseline) => ({ algoName: s.algo_name, algoParams: s.algo_params, dataParams: s.data_params });
      const created = await gates.create(await sessionOf(request.params.sid), {
        name: body.name,
        baseline: side(body.baseline),
        candidate: side(body.candidate),
        inputs: body.inputs,
        repeats: body.repeats ?? 10,
        kpis: body.kpis,
        alpha: body.alpha ?? 0.05,
        minEffect: body.min_effect ?? 0,
        rule: body.rule,
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/sessions/:sid/gates',
    {
      config: { errors: ['CURSOR_INVALID'] },
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: "List the session's gates in creation order, a page at a time",
        tags,
        params: SessionParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
          cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page' })),
        }),
        response: { 200: GatePage },
      },
    },
    async (request) => {
      const sessionId = await sessionOf(request.params.sid);
      const after = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, CURSOR_SORT).seq;
      const page = await gates.list(sessionId, request.query.limit ?? 50, after);
      return { items: page.items, next_cursor: page.lastSeq === undefined ? null : encodeCursor({ sort: CURSOR_SORT, value: null, seq: page.lastSeq }) };
    },
  );

  app.get(
    '/sessions/:sid/gates/:gid',
    {
      config: { errors: ['GATE_NOT_FOUND'] },
      schema: {
        summary: 'A gate with its progress and, once no run of it is queued or running, its verdict per KPI',
        tags,
        params: GateParams,
        response: { 200: GateDetail },
      },
    },
    async (request) => services.gates.get(await sessionOf(request.params.sid), request.params.gid),
  );

  app.post(
    '/sessions/:sid/gates/:gid/reports',
    {
      config: { errors: ['GATE_NOT_FOUND', 'GATE_RUNNING'], audit: { action: 'report.create', targets: { gid: 'gate' } } },
      schema: {
        summary: "Save the gate's verdict as a report: the verdict table, intervals, paired differences, inputs, who and when, frozen",
        description: 'Listed with the reports (kind gate) and read at GET /sessions/{sid}/reports/{rid} (also as a workbook).',
        tags,
        params: GateParams,
        body: NewGateReport,
        response: { 201: GateReportSchema },
      },
    },
    async (request, reply) => {
      const report = await gates.saveReport(await sessionOf(request.params.sid), request.params.gid, request.body, actorOf(request.principal));
      return reply.code(201).send(report);
    },
  );

  app.delete(
    '/sessions/:sid/gates/:gid',
    {
      config: { errors: ['GATE_NOT_FOUND', 'PLAN_SCENARIO_PROTECTED'], audit: { action: 'gate.delete', targets: { gid: 'gate' } } },
      schema: {
        summary: 'Delete the gate and all its scenarios (queued and running ones are cancelled)',
        tags,
        params: GateParams,
        response: { 200: BatchResult },
      },
    },
    async (request) => gates.delete(await sessionOf(request.params.sid), request.params.gid),
  );
};
