import { copied } from './copy.js';
import type { ParamDecls, ParamKind } from './kinds.js';

interface DescriptorBase<K extends ParamKind, V> {
  name: string;
  type: K;
  required: boolean;
  /** The chosen value in a scenario; the default (or null) in a schema listing. */
  value: V | null;
  /** Present only when the declaration has one. */
  default?: V;
  /** What a form shows: the declared label, or the name humanised (`time_limit` → `Time limit`). */
  label: string;
  description?: string;
}

/** Present only for integer/float, and only when declared. */
interface Bounds {
  min?: number;
  max?: number;
}

/** Present only for enum/multi_enum. */
interface Choices {
  choices: string[];
}

/**
 * A parameter as the wire shows it (service spec "Parameter descriptor", decisions "Parameter kinds"):
 * a union discriminated by `type`, each variant with its value typed.
 */
export type ParameterDescriptor =
  | (DescriptorBase<'integer', number> & Bounds)
  | (DescriptorBase<'float', number> & Bounds)
  | DescriptorBase<'string', string>
  | DescriptorBase<'boolean', boolean>
  | (DescriptorBase<'enum', string> & Choices)
  | (DescriptorBase<'multi_enum', string[]> & Choices)
  | DescriptorBase<'time', string>
  | DescriptorBase<'interval', [string, string]>;

/** The descriptor as built, before its kind narrows the value's type. */
interface LooseDescriptor {
  name: string;
  type: ParamKind;
  required: boolean;
  value: unknown;
  default?: unknown;
  min?: number;
  max?: number;
  choices?: string[];
  label: string;
  description?: string;
}

/**
 * The descriptors of `decls`, in declaration order. With `values` (a scenario's validated values) each
 * `value` is the chosen one; without, it is the default, or null. A name missing from `values` (e.g. a
 * parameter added after the scenario was stored) also shows its default. Arrays are copied so a
 * caller that edits a descriptor cannot reach into the declarations.
 */
export function describeParams(decls: ParamDecls, values?: Record<string, unknown>): ParameterDescriptor[] {
  return Object.entries(decls).map(([name, decl]) => {
    const chosen = values !== undefined && Object.hasOwn(values, name) ? values[name] : undefined;
    const descriptor: LooseDescriptor = {
      name,
      type: decl.kind,
      required: decl.required === true,
      label: decl.label ?? humanised(name),
      value: copied(chosen !== undefined ? chosen : (decl.default ?? null)),
    };
    if (decl.default !== undefined) descriptor.default = copied(decl.default);
    if (decl.kind === 'integer' || decl.kind === 'float') {
      if (decl.min !== undefined) descriptor.min = decl.min;
      if (decl.max !== undefined) descriptor.max = decl.max;
    }
    if (decl.kind === 'enum' || decl.kind === 'multi_enum') descriptor.choices = [...decl.choices];
    if (decl.description !== undefined) descriptor.description = decl.description;
    // Values were validated against `decl` (a scenario's) or are its own default, so they have its kind's type.
    return descriptor as ParameterDescriptor;
  });
}

/** `max_iterations` or `maxIterations` → `Max iterations`, `KPI_weight` → `KPI weight`: a label for a parameter that declares none. */
export function humanised(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    // An acronym (`KPI`) stays as written; other words are lower case after the first letter.
    .map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase()));
  if (words.length === 0) return name;
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
