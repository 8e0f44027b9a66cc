import { CANCEL_CHANNEL } from './cancel-notice.js';
import type { NoticeListener } from './notice-listener.js';

export { notifyCancel } from './cancel-notice.js';

/**
 * Cross-host cancellation: the API node that deletes or cancels a running scenario NOTIFYs its id,
 * and the worker process running it (wherever it is) aborts it within moments. Heard on the
 * process's one LISTEN connection (`NoticeListener`), which reconnects at once when its backend is
 * terminated or the database restarts, and keeps trying. A cancel sent while it was down is lost:
 * the lease is the backstop: the cancelled run's next lease renewal (every second) or progress write
 * finds its row no longer its own and stops it. Resolves once listening; answers how to stop.
 */
export function listenForCancels(listener: NoticeListener, onCancel: (scenarioId: string) => void): Promise<() => void> {
  return listener.subscribe(CANCEL_CHANNEL, {
    onNotice: (payload) => {
      if (payload) onCancel(payload);
    },
  });
}
