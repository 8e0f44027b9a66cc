import { EVENTS_CHANNEL } from '../../postgres/event-notice.js';
import { lifeCycleEvents, type OutboxSql } from './life-cycle-events.js';

/** An event's time as the log holds it (ISO-8601 in UTC, milliseconds), by the database's clock. */
export const EVENT_TIME_SQL = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const postgres: OutboxSql = {
  object: (pairs) => `jsonb_build_object(${pairs.map(([key, value]) => `'${key}', ${value}`).join(', ')})`,
  withReport: (object, report) => `(${object} || CASE WHEN ${report} IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('report', (${report})::jsonb) END)`,
};

/** Straight into the log (not through the `event_outbox` view, whose trigger would cost a call more). */
const outbox = (session: string, type: string, details: string) =>
  `INSERT INTO event_log (session_id, type, at, data) VALUES (${session}, ${type}, ${EVENT_TIME_SQL}, (${details})::text);`;

/**
 * The outbox on PostgreSQL. Many processes commit at once, so an event cannot take its id when it is
 * written: a transaction holding id n open while a later one commits n+1 would let a reader past n
 * for good, and taking ids under a lock held to commit would make every state change wait for the
 * previous one's WAL flush (so would a NOTIFY in every state change: PostgreSQL serializes the
 * commits of notifying transactions). Events are therefore written without an id (ordered by
 * `seq`, taken at insert), and numbered after they commit by `scenarist_number_events()`, which
 * every process calls after its own commits (and on a timer, for what a crashed one left): under
 * the counter row's lock it gives the committed unnumbered events the next ids in `seq` order,
 * queues their webhook deliveries and NOTIFYs `EVENTS_CHANNEL`, once for all of them. So ids are a
 * gap-free prefix: an event that commits late is numbered after every event a reader could see.
 */
/**
 * `scenarist_number_events()`, the numbering described above. The UPDATE names `e.id IS NULL` on the
 * log's side too, though `next` holds only such rows: without it the planner joins `next` to the
 * whole log by a hash of every row, so each numbering read the log end to end (and the log keeps
 * days of events). With it both sides come from the partial index of unnumbered events.
 */
export function numberEventsFunction(create: 'CREATE' | 'CREATE OR REPLACE'): string {
  return `${create} FUNCTION scenarist_number_events() RETURNS bigint LANGUAGE plpgsql AS $$
     DECLARE
       base bigint;
       numbered bigint;
       deliveries bigint;
     BEGIN
       IF NOT EXISTS (SELECT 1 FROM event_log WHERE id IS NULL) THEN RETURN 0; END IF;
       SELECT value INTO base FROM event_counter WHERE name = 'events' FOR UPDATE;
       -- A fresh snapshot after the lock: what another call numbered meanwhile is seen as numbered.
       UPDATE event_log e SET id = base + next.n
         FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM event_log WHERE id IS NULL ORDER BY seq LIMIT 10000) next
         WHERE e.seq = next.seq AND e.id IS NULL;
       GET DIAGNOSTICS numbered = ROW_COUNT;
       IF numbered = 0 THEN RETURN 0; END IF;
       UPDATE event_counter SET value = base + numbered WHERE name = 'events';
       INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
         SELECT gen_random_uuid()::text, w.id, e.id, e.type, 'pending', 0, e.at, e.at
         FROM event_log e JOIN webhooks w ON w.session_id = e.session_id AND w.events::jsonb ? e.type
         WHERE e.id > base AND e.id <= base + numbered;
       GET DIAGNOSTICS deliveries = ROW_COUNT;
       PERFORM pg_notify('${EVENTS_CHANNEL}', json_build_object('lastId', base + numbered, 'deliveries', deliveries)::text);
       RETURN numbered;
     END $$`;
}

export function postgresOutboxStatements(): string[] {
  const events = lifeCycleEvents(postgres);
  return [
    `ALTER TABLE event_log DROP CONSTRAINT event_log_pkey`,
    `ALTER TABLE event_log ALTER COLUMN id DROP NOT NULL`,
    `ALTER TABLE event_log ADD COLUMN seq bigserial PRIMARY KEY`,
    `CREATE UNIQUE INDEX event_log_by_id ON event_log (id)`,
    `CREATE INDEX event_log_unnumbered ON event_log (seq) WHERE id IS NULL`,
    `CREATE VIEW event_outbox AS SELECT session_id, type, data AS details FROM event_log WHERE false`,
    `CREATE FUNCTION scenarist_outbox_insert() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO event_log (session_id, type, at, data) VALUES (NEW.session_id, NEW.type, ${EVENT_TIME_SQL}, NEW.details);
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER event_outbox_log INSTEAD OF INSERT ON event_outbox FOR EACH ROW EXECUTE FUNCTION scenarist_outbox_insert()`,
    numberEventsFunction('CREATE'),
    `CREATE FUNCTION scenarist_scenario_events() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'INSERT' THEN
         ${outbox('NEW.session_id', `'scenario.created'`, events.scenarioCreated)}
         IF NEW.status = 'QUEUED' THEN ${outbox('NEW.session_id', `'scenario.queued'`, events.scenarioStatus('QUEUED'))} END IF;
       ELSIF TG_OP = 'UPDATE' THEN
         IF OLD.status IS DISTINCT FROM NEW.status THEN ${outbox('NEW.session_id', events.scenarioStatusType, events.scenarioStatusDetails)} END IF;
       ELSIF ${events.sessionStillThere} THEN
         ${outbox('OLD.session_id', `'scenario.deleted'`, events.scenarioDeleted)}
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER scenario_events AFTER INSERT OR UPDATE OF status OR DELETE ON scenarios
       FOR EACH ROW EXECUTE FUNCTION scenarist_scenario_events()`,
    `CREATE FUNCTION scenarist_dataset_events() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'INSERT' THEN
         ${outbox('NEW.session_id', `'dataset.created'`, events.datasetDetails('NEW'))}
       ELSIF TG_OP = 'UPDATE' THEN
         IF OLD.version IS DISTINCT FROM NEW.version THEN ${outbox('NEW.session_id', `'dataset.created'`, events.datasetDetails('NEW'))} END IF;
       ELSIF ${events.sessionStillThere} THEN
         ${outbox('OLD.session_id', `'dataset.deleted'`, events.datasetDetails('OLD'))}
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER dataset_events AFTER INSERT OR UPDATE OF version OR DELETE ON datasets
       FOR EACH ROW EXECUTE FUNCTION scenarist_dataset_events()`,
    `CREATE FUNCTION scenarist_session_events() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'UPDATE' THEN
         IF OLD.display_name IS DISTINCT FROM NEW.display_name THEN ${outbox('NEW.id', `'session.renamed'`, events.sessionRenamed)} END IF;
       ELSE
         ${outbox('OLD.id', `'session.deleted'`, `'{}'::jsonb`)}
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER session_events AFTER UPDATE OF display_name OR DELETE ON sessions
       FOR EACH ROW EXECUTE FUNCTION scenarist_session_events()`,
    // Logged events keep only their own fields: id, type, session and time are columns, joined in when read.
    `UPDATE event_log SET data = (data::jsonb - 'id' - 'type' - 'session_id' - 'at')::text`,
  ];
}
