import { copied } from './copy.js';
import type { ParamDecls, ParamKind } from './kinds.js';

/** A parameter as the wire shows it (service spec "Parameter descriptor", decisions "Parameter kinds"). */
export interface ParameterDescriptor {
  name: string;
  type: ParamKind;
  required: boolean;
  /** The chosen value in a scenario; the default (or null) in a schema listing. */
  value: unknown;
  /** Present only when the declaration has one. */
  default?: unknown;
  /** Present only for integer/float, and only when declared. */
  min?: number;
  max?: number;
  /** Present only for enum/multi_enum. */
  choices?: string[];
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
    const descriptor: ParameterDescriptor = {
      name,
      type: decl.kind,
      required: decl.required === true,
      value: copied(chosen !== undefined ? chosen : (decl.default ?? null)),
    };
    if (decl.default !== undefined) descriptor.default = copied(decl.default);
    if (decl.kind === 'integer' || decl.kind === 'float') {
      if (decl.min !== undefined) descriptor.min = decl.min;
      if (decl.max !== undefined) descriptor.max = decl.max;
    }
    if (decl.kind === 'enum' || decl.kind === 'multi_enum') descriptor.choices = [...decl.choices];
    if (decl.description !== undefined) descriptor.description = decl.description;
    return descriptor;
  });
}
