import { EVENTS_CHANNEL, type AppendNotice } from './event-notice.js';
import type { NoticeListener } from './notice-listener.js';

/** Read the whole log from where each reader is: what a lost or unreadable notice stands for. */
const WAKE_EVERYTHING: AppendNotice = { lastId: 0, deliveries: 1 };

/**
 * PostgreSQL wake-ups for the event feed and the webhook dispatcher: every commit of new events, by
 * any API node or worker, is numbered by one of them, which NOTIFYs `EVENTS_CHANNEL`. Heard on the
 * process's one LISTEN connection (`NoticeListener`, which reconnects); each (re)connection wakes
 * everything once, since notifications sent while it was down are lost (the readers then catch up
 * from the log by id). Resolves once listening; answers how to stop.
 */
export function listenForEvents(listener: NoticeListener, onNotice: (notice: AppendNotice) => void): Promise<() => void> {
  return listener.subscribe(EVENTS_CHANNEL, {
    onNotice: (payload) => onNotice(parseNotice(payload)),
    onListening: () => onNotice(WAKE_EVERYTHING),
  });
}

/** A malformed payload still wakes everything: reading the log is always safe. */
function parseNotice(payload: string | undefined): AppendNotice {
  try {
    const parsed = JSON.parse(payload ?? '') as Partial<AppendNotice>;
    return { lastId: Number(parsed.lastId ?? 0), deliveries: Number(parsed.deliveries ?? 1) };
  } catch {
    return WAKE_EVERYTHING;
  }
}
