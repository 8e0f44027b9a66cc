import { Type } from '@fastify/type-provider-typebox';
import { CATCH_UP_MODES, MAX_CATCH_UP_MAX } from '../../schedules/schedule-spec.js';
import { Nullable, SessionParams } from '../schemas.js';

export const ScheduleParams = Type.Intersect([SessionParams, Type.Object({ id: Type.String({ description: 'schedule id' }) })]);

const Cron = Type.String({ minLength: 1, maxLength: 200, description: "5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first: '0 5 * * 1-5', '*/2 * * * * *'" });
const Timezone = Type.String({ minLength: 1, maxLength: 100, description: "IANA time zone name ('Europe/Amsterdam'); default UTC" });

const ActionIn = Type.Union([
  Type.Literal('replan'),
  Type.Object({ kind: Type.Literal('replan') }),
  Type.Object({ kind: Type.Literal('rerun'), scenario: Type.String({ minLength: 1, description: 'id or tag of the scenario to reset and run' }) }),
  Type.Object({ kind: Type.Literal('experiment'), experiment: Type.String({ minLength: 1, description: 'id of the experiment to rerun' }) }),
]);
const ActionOut = Type.Union([
  Type.Object({ kind: Type.Literal('replan') }),
  Type.Object({ kind: Type.Literal('rerun'), scenario: Type.String() }),
  Type.Object({ kind: Type.Literal('experiment'), experiment: Type.String() }),
]);
const KpiThreshold = Type.Object({
  absolute: Type.Optional(Type.Number({ minimum: 0, description: 'alert when |value - plan| is larger' })),
  relative: Type.Optional(Type.Number({ minimum: 0, description: "alert when |value - plan| / |plan| is larger (0.05: 5 %)" })),
});
const ChurnThreshold = Type.Object({
  rows: Type.Optional(Type.Integer({ minimum: 0, description: 'alert when more result rows changed against the plan' })),
  share: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'alert when a larger share of result rows changed' })),
});
const NotifyIn = Type.Object({ kpis: Type.Optional(Type.Record(Type.String(), KpiThreshold)), churn: Type.Optional(ChurnThreshold) });
const NotifyOut = Type.Object({ kpis: Type.Record(Type.String(), KpiThreshold), churn: Nullable(ChurnThreshold) });
const RefreshIn = Type.Union([Type.String({ minLength: 1 }), Type.Object({ dataset: Type.String({ minLength: 1, description: 'dataset key refreshed from its drop folder' }) })]);
const CatchUp = Type.Union(CATCH_UP_MODES.map((m) => Type.Literal(m)), { description: "ticks missed while no node was up: 'none', 'latest' (default: run the last one), 'all' (up to catch_up_max)" });

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  cron: Cron,
  timezone: Type.Optional(Timezone),
  active: Type.Optional(Type.Boolean({ description: 'false pauses it' })),
  refresh: Type.Optional(Nullable(RefreshIn)),
  action: ActionIn,
  notify: Type.Optional(Nullable(NotifyIn)),
  catch_up: Type.Optional(CatchUp),
  catch_up_max: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CATCH_UP_MAX, description: "with catch_up 'all': most missed ticks run (the latest ones; default 10)" })),
};

export const CreateSchedule = Type.Object(fields);
export const PatchSchedule = Type.Partial(Type.Object(fields));
export const Preview = Type.Object({ cron: Cron, timezone: Type.Optional(Timezone), count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })) });
export const PreviewAnswer = Type.Object({ next_ticks: Type.Array(Type.String({ format: 'date-time' })) });

const KpiDelta = Type.Object({ name: Type.String(), plan: Nullable(Type.Number()), value: Nullable(Type.Number()), delta: Nullable(Type.Number()), relative: Nullable(Type.Number()) });
const Churn = Type.Object({ rows_changed: Type.Integer(), share: Type.Number() });
const Alert = Type.Object(
  {
    kind: Type.Union([Type.Literal('kpi'), Type.Literal('churn')]),
    scenario_id: Type.String(),
    kpi: Type.Optional(Type.String()),
    delta: Type.Optional(Type.Number()),
    relative: Type.Optional(Nullable(Type.Number())),
    rows_changed: Type.Optional(Type.Integer()),
    share: Type.Optional(Type.Number()),
    threshold: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true },
);
const Outcome = Type.Object({
  plan_id: Nullable(Type.String()),
  scenarios: Type.Array(Type.Object({ scenario_id: Type.String(), tag: Type.String(), status: Type.String(), kpis: Type.Array(KpiDelta), churn: Nullable(Churn) })),
  alerts: Type.Array(Alert),
});

export const Tick = Type.Object({
  id: Type.String(),
  due_at: Type.String({ format: 'date-time' }),
  manual: Type.Boolean({ description: 'asked for with POST .../run' }),
  status: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed'), Type.Literal('skipped')]),
  reason: Nullable(Type.String({ description: 'why it was skipped' })),
  error: Nullable(Type.String({ description: "why it failed (the ETL's errors, a failed run ...)" })),
  started_at: Nullable(Type.String()),
  ended_at: Nullable(Type.String()),
  missed: Type.Integer({ description: 'ticks missed while no node was up that this one stands for' }),
  data_version: Nullable(Type.Integer({ description: 'version of the refreshed dataset the action used' })),
  refresh: Nullable(
    Type.Object({
      dataset: Type.String(),
      files: Type.Array(Type.String()),
      success: Nullable(Type.Boolean()),
      messages: Type.Array(Type.Object({ severity: Type.String(), message: Type.String() })),
    }),
  ),
  scenario_ids: Type.Array(Type.String(), { description: 'the scenarios the tick made or ran' }),
  outcome: Nullable(Outcome),
});

export const Schedule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  cron: Type.String(),
  timezone: Type.String(),
  active: Type.Boolean(),
  refresh: Nullable(
    Type.Object({
      dataset: Type.String(),
      drop_folder: Type.String({ description: 'absolute path of the folder to drop files in (by session name where it can be a folder name)' }),
      drop_folders: Type.Array(Type.String(), { description: 'every folder files are taken from (by session name and by id)' }),
    }),
  ),
  action: ActionOut,
  notify: Nullable(NotifyOut),
  catch_up: CatchUp,
  catch_up_max: Nullable(Type.Integer()),
  next_ticks: Type.Array(Type.String({ format: 'date-time' }), { description: 'the next five ticks (none while paused)' }),
  last_tick: Nullable(Tick),
  created_at: Type.String(),
  updated_at: Type.String(),
});
