import { lifeCycleEvents, type OutboxSql } from './life-cycle-events.js';

/** ISO 8601 UTC with milliseconds, as `new Date().toISOString()` writes it. */
const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** A random version-4 UUID (SQLite has no function for one). */
const UUID = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
  || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;

const sqlite: OutboxSql = {
  object: (pairs) => `json_object(${pairs.map(([key, value]) => `'${key}', ${value}`).join(', ')})`,
  withReport: (object, report) => `CASE WHEN ${report} IS NULL THEN ${object} ELSE json_set(${object}, '$.report', json(${report})) END`,
};

const outbox = (session: string, type: string, details: string, when?: string) =>
  when === undefined
    ? `INSERT INTO event_outbox (session_id, type, details) VALUES (${session}, ${type}, ${details});`
    : `INSERT INTO event_outbox (session_id, type, details) SELECT ${session}, ${type}, ${details} WHERE ${when};`;

/**
 * The outbox on SQLite. One process writes the store and transactions run one at a time, so an
 * event takes its id from the counter at once: ids are in commit order by construction.
 * `event_outbox` is a view whose INSERT numbers an event, logs it and queues its webhook
 * deliveries; the triggers on sessions, datasets and scenarios insert into it in the very
 * statement that changes their state.
 */
export function sqliteOutboxStatements(): string[] {
  const events = lifeCycleEvents(sqlite);
  return [
    `CREATE VIEW event_outbox AS SELECT session_id, type, data AS details FROM event_log WHERE 0`,
    `CREATE TRIGGER event_outbox_log INSTEAD OF INSERT ON event_outbox BEGIN
       UPDATE event_counter SET value = value + 1 WHERE name = 'events';
       INSERT INTO event_log (id, session_id, type, at, data)
         SELECT value, NEW.session_id, NEW.type, ${NOW}, NEW.details FROM event_counter WHERE name = 'events';
     END`,
    `CREATE TRIGGER event_log_deliveries AFTER INSERT ON event_log BEGIN
       INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
         SELECT ${UUID}, w.id, NEW.id, NEW.type, 'pending', 0, NEW.at, NEW.at FROM webhooks w
         WHERE w.session_id = NEW.session_id AND EXISTS (SELECT 1 FROM json_each(w.events) WHERE json_each.value = NEW.type);
     END`,
    `CREATE TRIGGER scenario_created_event AFTER INSERT ON scenarios BEGIN
       ${outbox('NEW.session_id', `'scenario.created'`, events.scenarioCreated)}
       ${outbox('NEW.session_id', `'scenario.queued'`, events.scenarioStatus('QUEUED'), `NEW.status = 'QUEUED'`)}
     END`,
    `CREATE TRIGGER scenario_status_event AFTER UPDATE OF status ON scenarios WHEN OLD.status IS NOT NEW.status BEGIN
       ${outbox('NEW.session_id', events.scenarioStatusType, events.scenarioStatusDetails)}
     END`,
    `CREATE TRIGGER scenario_deleted_event AFTER DELETE ON scenarios BEGIN
       ${outbox('OLD.session_id', `'scenario.deleted'`, events.scenarioDeleted, events.sessionStillThere)}
     END`,
    `CREATE TRIGGER dataset_created_event AFTER INSERT ON datasets BEGIN
       ${outbox('NEW.session_id', `'dataset.created'`, events.datasetDetails('NEW'))}
     END`,
    `CREATE TRIGGER dataset_replaced_event AFTER UPDATE OF version ON datasets WHEN OLD.version IS NOT NEW.version BEGIN
       ${outbox('NEW.session_id', `'dataset.created'`, events.datasetDetails('NEW'))}
     END`,
    `CREATE TRIGGER dataset_deleted_event AFTER DELETE ON datasets BEGIN
       ${outbox('OLD.session_id', `'dataset.deleted'`, events.datasetDetails('OLD'), events.sessionStillThere)}
     END`,
    `CREATE TRIGGER session_renamed_event AFTER UPDATE OF display_name ON sessions WHEN OLD.display_name IS NOT NEW.display_name BEGIN
       ${outbox('NEW.id', `'session.renamed'`, events.sessionRenamed)}
     END`,
    `CREATE TRIGGER session_deleted_event AFTER DELETE ON sessions BEGIN
       ${outbox('OLD.id', `'session.deleted'`, `'{}'`)}
     END`,
    // Logged events keep only their own fields: id, type, session and time are columns, joined in when read.
    `UPDATE event_log SET data = json_remove(data, '$.id', '$.type', '$.session_id', '$.at')`,
  ];
}
