/**
 * The run threads' defaults (`worker_heap_limit`, `worker_idle_timeout`).
 *
 * Heap: a run thread holds the domain, its parsed datasets (a small cache by version) and the run's
 * own data. Without a limit V8 lets each thread grow to its default heap (a share of the machine's
 * memory) inside the server's process, so a runaway algorithm takes the whole service down; with one
 * the thread ends with ERR_WORKER_OUT_OF_MEMORY and only its run FAILS. 1 GiB leaves room for the
 * largest dataset the benchmarks run on (docs/benchmarks.md, "Run threads") several times over, and
 * two threads at their limit stay within a 4 GB machine.
 */
export const DEFAULT_WORKER_HEAP_LIMIT_MB = 1_024;

/**
 * Idle: the threads return their memory after a minute without a run; starting them again costs about
 * 0.2 s (docs/architecture.md), paid only by the first run after a quiet minute.
 */
export const DEFAULT_WORKER_IDLE_TIMEOUT_MS = 60_000;
