/** An `event_log` row as read: its columns, and its own fields as a JSON object (`data`). */
export interface EventRow {
  readonly id: number | string;
  readonly type: string;
  readonly session_id: string;
  readonly at: string;
  readonly data: string;
}

/**
 * The event's JSON as delivered over SSE and to webhooks: `id`, `type`, `session_id` and `at`
 * first, then its own fields, joined as text (never parsed: the log's writers produce objects).
 */
export function eventJson(row: EventRow): string {
  const common = `{"id":${Number(row.id)},"type":${JSON.stringify(row.type)},"session_id":${JSON.stringify(row.session_id)},"at":${JSON.stringify(row.at)}`;
  const own = row.data.slice(1).trimStart();
  return own === '}' ? `${common}}` : `${common},${own}`;
}
