import type { Status } from '../api/types.ts';

/** The statuses of a scenario whose run is under way: its facts still change. */
export const ACTIVE: ReadonlySet<Status> = new Set(['QUEUED', 'PROCESSING']);
