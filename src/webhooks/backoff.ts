/** Attempts of one delivery before it is given up as `failed`. */
export const MAX_ATTEMPTS = 8;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;

/** Wait before the next try after `attempts` failed ones: 1 s, 2 s, 4 s ... at most a minute. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1));
}
