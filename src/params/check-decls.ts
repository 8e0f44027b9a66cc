import { valueProblem } from './check-value.js';
import { shown } from './errors.js';
import { PARAM_KINDS, type ParamDecl, type ParamDecls, type ParamKind } from './kinds.js';

/** The properties each kind may declare; anything else is most likely a typo (`defualt`, `minimum`). */
const COMMON_KEYS = ['kind', 'label', 'description', 'required', 'default'];
const KEYS_BY_KIND: Record<ParamKind, readonly string[]> = {
  integer: [...COMMON_KEYS, 'min', 'max'],
  float: [...COMMON_KEYS, 'min', 'max'],
  string: COMMON_KEYS,
  boolean: COMMON_KEYS,
  enum: [...COMMON_KEYS, 'choices'],
  multi_enum: [...COMMON_KEYS, 'choices'],
  time: COMMON_KEYS,
  interval: COMMON_KEYS,
};

/**
 * Checks parameter declarations when a domain module is loaded, so a mistake in one stops start-up
 * with a message naming `owner` (e.g. `algorithm "solve"`) and the parameter, instead of surfacing
 * later as a confusing 400 or a run with an impossible default. Domain modules may be plain
 * JavaScript, so nothing here trusts the static types. Throws a plain Error: this is the domain
 * author's mistake, not the client's.
 */
export function checkDecls(decls: ParamDecls, owner: string): void {
  if (typeof decls !== 'object' || decls === null || Array.isArray(decls)) {
    throw new Error(`${owner}: parameters must be an object mapping names to declarations`);
  }
  for (const [name, decl] of Object.entries(decls)) {
    const problem = declProblem(name, decl);
    if (problem !== undefined) throw new Error(`${owner}: parameter '${name}': ${problem}`);
  }
}

/** What is wrong with one declaration, or undefined when it is sound (also the check of a domain manifest's parameters). */
export function declProblem(name: string, decl: unknown): string | undefined {
  if (name === '') return 'a parameter name must not be empty';
  if (typeof decl !== 'object' || decl === null || Array.isArray(decl)) return 'the declaration must be an object';
  const d = decl as Record<string, unknown>;
  const kind = d.kind;
  if (!isKind(kind)) return `unknown kind ${shown(kind)} (known: ${PARAM_KINDS.join(', ')})`;
  const allowed = KEYS_BY_KIND[kind];
  const extra = Object.keys(d).find((key) => !allowed.includes(key));
  if (extra !== undefined) return `unknown property '${extra}' for kind ${kind} (allowed: ${allowed.join(', ')})`;
  if (d.label !== undefined && (typeof d.label !== 'string' || d.label.trim() === '')) return 'label must be a non-empty string';
  if (d.description !== undefined && typeof d.description !== 'string') return 'description must be a string';
  if (d.required !== undefined && typeof d.required !== 'boolean') return 'required must be true or false';
  if (kind === 'integer' || kind === 'float') {
    const problem = boundsProblem(kind, d);
    if (problem !== undefined) return problem;
  }
  if (kind === 'enum' || kind === 'multi_enum') {
    const problem = choicesProblem(d.choices);
    if (problem !== undefined) return problem;
  }
  // Last, because checking the default relies on sound bounds and choices.
  return defaultProblem(decl as ParamDecl);
}

function isKind(kind: unknown): kind is ParamKind {
  return (PARAM_KINDS as readonly unknown[]).includes(kind);
}

function boundsProblem(kind: 'integer' | 'float', d: Record<string, unknown>): string | undefined {
  for (const bound of ['min', 'max'] as const) {
    const value = d[bound];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${bound} must be a finite number, got ${shown(value)}`;
    if (kind === 'integer' && !Number.isSafeInteger(value)) return `${bound} of an integer parameter must be a (safe) integer, got ${value}`;
  }
  if (typeof d.min === 'number' && typeof d.max === 'number' && d.min > d.max) return `min (${d.min}) is greater than max (${d.max})`;
  return undefined;
}

function choicesProblem(choices: unknown): string | undefined {
  if (!Array.isArray(choices) || choices.length === 0) return 'choices must be a non-empty array of strings';
  const seen = new Set<string>();
  for (const choice of choices as unknown[]) {
    if (typeof choice !== 'string') return `choices must be strings, got ${shown(choice)}`;
    if (seen.has(choice)) return `choice ${JSON.stringify(choice)} is listed more than once`;
    seen.add(choice);
  }
  return undefined;
}

/** A default must pass the very check a client value gets, or every run relying on it would fail. */
function defaultProblem(decl: ParamDecl): string | undefined {
  if (decl.default === undefined) return undefined;
  if (decl.default === null) return 'default must not be null (leave it out to have no default)';
  const problem = valueProblem(decl, decl.default);
  return problem === undefined ? undefined : `default ${problem}`;
}
