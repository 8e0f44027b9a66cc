import { getEnvironmentData, isMainThread, setEnvironmentData, threadId } from 'node:worker_threads';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Where the main thread leaves the gate's shared cell for the threads it starts. */
const GATE_KEY = 'scenarist.sqlite-write-gate';
/**
 * How long a writer waits for the gate before it goes on to SQLite's own lock. The gate is advisory:
 * SQLite's write lock is what keeps writers apart. So a holder that outlasts this (a long transaction,
 * or a thread ended while it held the gate) only costs the next writer this wait once, after which it
 * takes the gate over and the waits are SQLite's again.
 */
const WAIT_LIMIT_MS = 50;
const FREE = 0;

/**
 * The in-process order of SQLite's writers: the main thread and the run threads, each with its own
 * connection, take one shared cell before `BEGIN IMMEDIATE` and free it after `COMMIT` or `ROLLBACK`.
 *
 * Why: a connection that finds the write lock taken waits in SQLite's busy handler, which sleeps 1, 2,
 * 5, 10 ms... between tries. A run request that met a run thread's commit (a quarter of a millisecond)
 * slept a whole millisecond or more: with 200 runs over 20 sessions on two run threads, 29 of the 200
 * run requests' `BEGIN IMMEDIATE` waited over 1 ms, 66 ms in all against 3 ms uncontended (measured by
 * timing each statement). Waiting on the cell with `Atomics.wait`, the next writer wakes as the
 * holder frees it.
 */
export class WriteGate {
  private readonly cell: Int32Array;

  /** The gate whose cell is `buffer` (one 32-bit integer: 0 when free, else the holder's thread id + 1). */
  constructor(buffer: SharedArrayBuffer) {
    this.cell = new Int32Array(buffer, 0, 1);
  }

  /**
   * The process's gate: made by the main thread (before it starts threads, which inherit it), found by
   * the threads. Undefined in a thread whose main thread made none (the layer off).
   */
  static ofProcess(): WriteGate | undefined {
    let buffer = getEnvironmentData(GATE_KEY) as SharedArrayBuffer | undefined;
    if (buffer === undefined && isMainThread) {
      buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
      setEnvironmentData(GATE_KEY, buffer);
    }
    return buffer === undefined ? undefined : new WriteGate(buffer);
  }

  /**
   * Takes the gate, waiting for its holder at most `waitLimitMs` before taking it over. False when
   * this thread already holds it (through another connection) or another thread took it first.
   */
  enter(waitLimitMs = WAIT_LIMIT_MS): boolean {
    const me = threadId + 1;
    const deadline = performance.now() + waitLimitMs;
    for (;;) {
      const holder = Atomics.compareExchange(this.cell, 0, FREE, me);
      if (holder === FREE) return true;
      if (holder === me) return false;
      const left = deadline - performance.now();
      if (left <= 0) {
        // The holder outlasted the wait: take the gate over from it (SQLite's lock still decides).
        return Atomics.compareExchange(this.cell, 0, holder, me) === holder;
      }
      Atomics.wait(this.cell, 0, holder, left);
    }
  }

  /** Frees the gate if this thread still holds it, waking one waiter; answers whether it held it. */
  leave(): boolean {
    if (Atomics.compareExchange(this.cell, 0, threadId + 1, FREE) !== threadId + 1) return false;
    Atomics.notify(this.cell, 0, 1);
    return true;
  }
}

/**
 * A connection whose transactions pass through `gate`: `begin` enters it, a `commit` that succeeded or
 * any `rollback` leaves it (a failed commit leaves the transaction open; its rollback follows). It sees
 * the texts as Kysely's driver and the audit hook write them, before `begin` is made `begin immediate`;
 * they are matched exactly, since every statement of the connection passes here.
 */
export function withWriteGate(database: SqliteDatabase, gate: WriteGate): SqliteDatabase {
  let entered = false;
  const leave = () => {
    if (entered) gate.leave();
    entered = false;
  };
  const around = (statement: SqliteStatement, before: () => void, after: (ok: boolean) => void): SqliteStatement => ({
    reader: statement.reader,
    all: (parameters) => statement.all(parameters),
    iterate: (parameters) => statement.iterate(parameters),
    run: (parameters) => {
      before();
      let ok = false;
      try {
        const result = statement.run(parameters);
        ok = true;
        return result;
      } finally {
        after(ok);
      }
    },
  });
  return {
    close: () => database.close(),
    prepare: (sql: string) => {
      const statement = database.prepare(sql);
      switch (sql) {
        case 'begin':
          return around(
            statement,
            () => {
              entered = gate.enter();
            },
            (ok) => {
              if (!ok) leave();
            },
          );
        case 'commit':
          return around(
            statement,
            () => undefined,
            (ok) => {
              if (ok) leave();
            },
          );
        case 'rollback':
          return around(statement, () => undefined, leave);
        default:
          return statement;
      }
    },
  };
}
