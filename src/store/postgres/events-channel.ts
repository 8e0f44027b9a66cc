/**
 * The PostgreSQL channel on which every commit of new events is announced (by the outbox's numbering
 * trigger; payload `{"lastId": n, "deliveries": n}`).
 */
export const EVENTS_CHANNEL = 'scenarist_events';
