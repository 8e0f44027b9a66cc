import { ExternalFailure } from './external-failure.js';

/** What the programs this contract expects print when an allocation fails under the address-space limit. */
const OUT_OF_MEMORY = /MemoryError|Cannot allocate memory|out of memory|bad_alloc|ENOMEM/i;

/**
 * The failure of a program that exited non-zero or was ended by a signal: its status and last stderr
 * lines. One that ran out of memory while the address-space limit was on is MEMORY_LIMIT: the limit
 * makes allocations fail, and the program then says so on stderr before it exits.
 */
export function exitFailure(exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null }, tail: readonly string[], memoryBytes: number): ExternalFailure {
  const status = exit.signal !== null ? `was ended by signal ${exit.signal}` : `exited with status ${String(exit.code)}`;
  const last = tail.length > 0 ? `; its last stderr lines: ${tail.join(' | ')}` : '; it wrote nothing on stderr';
  if (memoryBytes > 0 && tail.some((line) => OUT_OF_MEMORY.test(line))) {
    return new ExternalFailure('MEMORY_LIMIT', `the program ran out of memory under its limit of ${memoryBytes} bytes (setting external_memory_limit) and ${status}${last}`);
  }
  return new ExternalFailure('ALGORITHM_ERROR', `the program ${status}${last}`);
}
