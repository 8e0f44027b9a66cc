/**
 * The PostgreSQL channel on which every numbering of new events is announced (payload
 * `{"lastId": n, "deliveries": n}`): the SSE feeds and webhook dispatchers of every process wake on it.
 */
export const EVENTS_CHANNEL = 'scenarist_events';

/** What a commit announces: the highest id it logged, and how many webhook deliveries it queued. */
export interface AppendNotice {
  readonly lastId: number;
  readonly deliveries: number;
}
