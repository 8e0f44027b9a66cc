/** How a dialect writes a JSON object in SQL. */
export interface OutboxSql {
  /** A JSON object of `[key, SQL expression]` pairs, in that order. */
  object(pairs: readonly (readonly [string, string])[]): string;
  /** `object` with a `report` member holding the JSON text `report` when it is not NULL. */
  withReport(object: string, report: string): string;
}

const statusType = `CASE NEW.status
  WHEN 'QUEUED' THEN 'scenario.queued'
  WHEN 'PROCESSING' THEN 'scenario.started'
  WHEN 'COMPLETE' THEN 'scenario.completed'
  WHEN 'FAILED' THEN 'scenario.failed'
  ELSE 'scenario.reset' END`;

/**
 * The fields of every life-cycle event (docs/api/events.md), as SQL over the row a trigger sees
 * (`NEW`, or `OLD` for a deletion), shared by both dialects' triggers so the two logs agree.
 */
export function lifeCycleEvents(sql: OutboxSql) {
  const scenario = (status: string) => [['scenario_id', 'NEW.id'], ['tag', 'NEW.tag'], ['status', status]] as const;
  const details = `CASE NEW.status
    WHEN 'COMPLETE' THEN ${sql.withReport(sql.object([...scenario('NEW.status'), ['progress', '1']]), 'NEW.report')}
    WHEN 'FAILED' THEN ${sql.withReport(sql.object([...scenario('NEW.status'), ['message', 'NEW.error'], ['code', 'NEW.error_code']]), 'NEW.report')}
    WHEN 'CREATED' THEN ${sql.object([...scenario('NEW.status'), ['progress', '0']])}
    ELSE ${sql.object(scenario('NEW.status'))} END`;
  return {
    /** A stored scenario; one stored already queued (an experiment run at once) is created, then queued. */
    scenarioCreated: sql.object(scenario(`CASE WHEN NEW.status = 'QUEUED' THEN 'CREATED' ELSE NEW.status END`)),
    scenarioStatus: (status: string) => sql.object(scenario(`'${status}'`)),
    /** The event type of a status change: every status has exactly one. */
    scenarioStatusType: statusType,
    scenarioStatusDetails: details,
    scenarioDeleted: sql.object([['scenario_id', 'OLD.id'], ['tag', 'OLD.tag']]),
    datasetDetails: (row: 'NEW' | 'OLD') => sql.object([['dataset_key', `${row}.key`]]),
    sessionRenamed: sql.object([['display_name', 'NEW.display_name']]),
    /**
     * Deleting a session cascades to its scenarios and datasets; only `session.deleted` is told then
     * (the session's row is already gone when the cascade's triggers run, in both dialects).
     */
    sessionStillThere: `EXISTS (SELECT 1 FROM sessions WHERE sessions.id = OLD.session_id)`,
  };
}
