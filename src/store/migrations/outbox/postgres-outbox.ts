import { EVENTS_CHANNEL } from '../../postgres/events-channel.js';
import { lifeCycleEvents, type OutboxSql } from './life-cycle-events.js';

const NOW = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const postgres: OutboxSql = {
  object: (pairs) => `jsonb_build_object(${pairs.map(([key, value]) => `'${key}', ${value}`).join(', ')})`,
  withReport: (object, report) => `(${object} || CASE WHEN ${report} IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('report', (${report})::jsonb) END)`,
};

const outbox = (session: string, type: string, details: string) =>
  `INSERT INTO event_outbox (session_id, type, details) VALUES (${session}, ${type}, (${details})::text);`;

/**
 * The outbox on PostgreSQL. Many processes commit concurrently, so an event cannot take its id when
 * it is written: a transaction holding id n open while a later one commits n+1 would let a reader
 * past n for good. Events are written with a provisional negative id instead, and numbered by a
 * deferred trigger at commit, under the counter row's lock, which is then held only for the commit
 * itself. Ids are thereby given in commit order, and the committed ids are a gap-free prefix. The
 * same trigger queues the webhook deliveries and NOTIFYs the listeners, once per transaction.
 */
export function postgresOutboxStatements(): string[] {
  const events = lifeCycleEvents(postgres);
  return [
    `CREATE SEQUENCE event_log_provisional`,
    `CREATE VIEW event_outbox AS SELECT session_id, type, data AS details FROM event_log WHERE false`,
    `CREATE FUNCTION scenarist_outbox_insert() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO event_log (id, session_id, type, at, data)
         VALUES (-nextval('event_log_provisional'), NEW.session_id, NEW.type, ${NOW}, NEW.details);
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER event_outbox_log INSTEAD OF INSERT ON event_outbox FOR EACH ROW EXECUTE FUNCTION scenarist_outbox_insert()`,
    `CREATE FUNCTION scenarist_number_events() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE
       pending bigint;
       base bigint;
       deliveries bigint;
     BEGIN
       -- Fires once per event at commit; the first numbers every provisional event of the transaction.
       IF NOT EXISTS (SELECT 1 FROM event_log WHERE id = NEW.id) THEN RETURN NULL; END IF;
       SELECT count(*) INTO pending FROM event_log WHERE id < 0;
       UPDATE event_counter SET value = value + pending WHERE name = 'events' RETURNING value - pending INTO base;
       -- Provisional ids fall as events are written: descending order is the order they were written in.
       UPDATE event_log e SET id = numbered.id
         FROM (SELECT id AS provisional, base + row_number() OVER (ORDER BY id DESC) AS id FROM event_log WHERE id < 0) numbered
         WHERE e.id = numbered.provisional;
       INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
         SELECT gen_random_uuid()::text, w.id, e.id, e.type, 'pending', 0, e.at, e.at
         FROM event_log e JOIN webhooks w ON w.session_id = e.session_id AND w.events::jsonb ? e.type
         WHERE e.id > base AND e.id <= base + pending;
       GET DIAGNOSTICS deliveries = ROW_COUNT;
       PERFORM pg_notify('${EVENTS_CHANNEL}', json_build_object('lastId', base + pending, 'deliveries', deliveries)::text);
       RETURN NULL;
     END $$`,
    `CREATE CONSTRAINT TRIGGER event_log_number AFTER INSERT ON event_log
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION scenarist_number_events()`,
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
