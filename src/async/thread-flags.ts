/**
 * The Node options a worker thread inherits from its process. A thread takes only the options that
 * decide how its modules load and what diagnostics it writes: Node refuses the others in a thread
 * (`ERR_WORKER_INVALID_EXEC_ARGV`), namely V8's flags and the process-wide ones, so a server started as
 * `node --max-old-space-size=512 bin/scenarist.js serve` (an operator's usual heap setting) could start
 * no run or upload thread at all. Those flags apply to the main thread's isolate; a thread's heap is
 * set by its pool's resource limits.
 */

/** Options a thread accepts that take a value, either after `=` or as the next argument. */
const WITH_VALUE = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--conditions',
  '-C',
  '--input-type',
  '--unhandled-rejections',
  '--cpu-prof-dir',
  '--cpu-prof-name',
  '--cpu-prof-interval',
  '--heap-prof-dir',
  '--heap-prof-name',
  '--heap-prof-interval',
]);

/** Options a thread accepts that stand alone. */
const SWITCHES = new Set([
  '--enable-source-maps',
  '--no-warnings',
  '--trace-warnings',
  '--trace-uncaught',
  '--trace-deprecation',
  '--no-deprecation',
  '--throw-deprecation',
  '--frozen-intrinsics',
  '--cpu-prof',
  '--heap-prof',
]);

const isExperimental = (name: string) => name.startsWith('--experimental-') || name.startsWith('--no-experimental-');

/** The options of `execArgv` a worker thread accepts, in their order; every other option (and its value) is left out. */
export function threadFlags(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let at = 0; at < execArgv.length; at++) {
    const argument = execArgv[at]!;
    const equals = argument.indexOf('=');
    const name = equals === -1 ? argument : argument.slice(0, equals);
    const takesValue = WITH_VALUE.has(name);
    if (takesValue || SWITCHES.has(name) || isExperimental(name)) {
      kept.push(argument);
      if (takesValue && equals === -1 && at + 1 < execArgv.length) kept.push(execArgv[++at]!);
    }
    // Anything else is left out: a refused option, or the value of one given as its own argument.
  }
  return kept;
}
