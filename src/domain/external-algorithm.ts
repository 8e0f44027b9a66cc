import type { ParamDecls } from '../params/kinds.js';
import type { AlgorithmDeclaration } from './algorithm-declaration.js';
import type { ResultType } from './define.js';

/**
 * How the service starts an external algorithm: a program of any language that reads its input as
 * JSON on stdin and writes its result as JSON on stdout (docs/external-algorithms.md). It comes from
 * the domain author's code only, never from a request.
 */
export interface ExternalCommand {
  /**
   * The program and its arguments (an argv array, no shell). An element that starts with `./` or `../`
   * is a path relative to the domain module's directory; `python3` and other bare names are looked up
   * on the PATH.
   */
  readonly command: readonly [string, ...string[]];
  /** The working directory of the program, relative to the domain module's directory (default: that directory). */
  readonly cwd?: string;
  /**
   * Variables the program gets besides the few it always gets (those `INHERITED` lists in
   * src/executor/run/external/child-environment.ts, and `PYTHONIOENCODING=utf-8`). It never sees the
   * service's own environment: no database URL, token secret or other setting.
   */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * An algorithm run as a separate program. It declares its name, description, parameters and result
 * type exactly as a TypeScript algorithm does; its result type must carry a schema (`defineResultType(name,
 * schema)`), against which its output is checked before KPIs and views see it.
 */
export interface ExternalAlgorithm<P extends ParamDecls = ParamDecls, R = unknown, N extends string = string> extends AlgorithmDeclaration<P, N> {
  /** What the program's stdout must be; KPIs and views declared `appliesTo` it measure and draw it. */
  readonly result: ResultType<R>;
  readonly external: ExternalCommand;
}

/** Declares an external algorithm (see `ExternalAlgorithm`). */
export function defineExternalAlgorithm<const P extends ParamDecls, R, const N extends string = string>(
  algorithm: ExternalAlgorithm<P, R, N>,
): ExternalAlgorithm<P, R, N> {
  return Object.freeze({ ...algorithm, external: Object.freeze({ ...algorithm.external }) });
}

/** Whether an algorithm of a domain is an external program rather than a TypeScript `run` function. */
export function isExternal<A extends object>(algorithm: A): algorithm is Extract<A, { readonly external: ExternalCommand }> {
  const external = (algorithm as { external?: unknown }).external;
  return typeof external === 'object' && external !== null;
}
