/**
 * The PostgreSQL channel on which every numbering of new events is announced (payload
 * `{"lastId": n, "deliveries": n}`): the SSE feeds and webhook dispatchers of every process wake on it.
 */
export const EVENTS_CHANNEL = 'scenarist_events';
