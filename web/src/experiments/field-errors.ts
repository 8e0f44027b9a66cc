import { ApiError, type FieldError } from '../api/http.ts';

/**
 * Where the server's `errors: [{ path, message }]` of a refused experiment belong in the form:
 * `axes.<axis path>[i]` at that axis, `name`, `dataset_key` (or the dataset axis) and `repeats` at their
 * fields, anything else (`combinations[7]`) in a list above the button. A 409 is the name; a 413 the count.
 */
export interface FormErrors {
  fields: Record<string, string[]>;
  other: FieldError[];
}

export const NO_ERRORS: FormErrors = { fields: {}, other: [] };

function fieldOf(path: string): string | null {
  const axis = /^axes\.(.+?)(\[\d+\])?$/.exec(path);
  if (axis?.[1] !== undefined) return axis[1] === 'dataset_key' ? 'datasets' : axis[1];
  if (path === 'dataset_key') return 'datasets';
  if (path === 'name' || path === 'repeats' || path === 'algo_name') return path;
  return null;
}

export function formErrorsOf(error: unknown): FormErrors {
  if (!(error instanceof ApiError)) return NO_ERRORS;
  const fields: Record<string, string[]> = {};
  const other: FieldError[] = [];
  const add = (field: string, message: string) => (fields[field] = [...(fields[field] ?? []), message]);
  for (const e of error.errors) {
    const field = fieldOf(e.path);
    if (field === null) other.push(e);
    else add(field, e.path.startsWith('axes.') && e.path.includes('[') ? `${e.path.slice(e.path.indexOf('['))}: ${e.message}` : e.message);
  }
  if (error.status === 409 && error.errors.length === 0) add('name', error.detail);
  if (error.status === 413) add('count', error.detail);
  return { fields, other };
}
