import type { ParameterDescriptor } from '../api/types.ts';

/**
 * What each parameter kind holds while it is edited in the form, and how that becomes the JSON value
 * the API takes. Text that is not a number, bounds and choices are checked here, so every such field is
 * marked at once before sending; formats are the server's to judge, and its messages land at the fields.
 */
export type FormValue = string | boolean | string[] | [string, string];

export function initialFormValue(d: ParameterDescriptor): FormValue {
  const v = d.value !== undefined && d.value !== null ? d.value : d.default;
  switch (d.type) {
    case 'boolean':
      return v === true;
    case 'multi_enum':
      return Array.isArray(v) ? v.map(String) : [];
    case 'interval':
      return Array.isArray(v) && v.length === 2 ? [String(v[0] ?? ''), String(v[1] ?? '')] : ['', ''];
    default:
      return v === undefined || v === null ? '' : String(v);
  }
}

export type Converted = { ok: true; value: unknown } | { ok: false; error: string };

export function toApiValue(d: ParameterDescriptor, form: FormValue): Converted {
  switch (d.type) {
    case 'boolean':
      return { ok: true, value: form === true };
    case 'multi_enum': {
      const chosen = Array.isArray(form) ? [...form] : [];
      const unknown = chosen.filter((c) => !d.choices.includes(c));
      return unknown.length > 0 ? { ok: false, error: `not a choice: ${unknown.join(', ')}` } : { ok: true, value: chosen };
    }
    case 'interval': {
      const [start, end] = Array.isArray(form) ? (form as [string, string]) : ['', ''];
      if (start.trim() === '' && end.trim() === '') return d.required ? { ok: false, error: 'enter a start and an end' } : { ok: true, value: null };
      return { ok: true, value: [start.trim(), end.trim()] };
    }
    case 'integer':
    case 'float': {
      const text = String(form).trim();
      if (text === '') return d.required ? { ok: false, error: 'enter a number' } : { ok: true, value: null };
      const n = Number(text);
      if (!Number.isFinite(n)) return { ok: false, error: `"${text}" is not a number` };
      if (d.type === 'integer' && !Number.isInteger(n)) return { ok: false, error: 'must be a whole number' };
      if (d.min !== undefined && n < d.min) return { ok: false, error: `must be at least ${d.min}` };
      if (d.max !== undefined && n > d.max) return { ok: false, error: `must be at most ${d.max}` };
      return { ok: true, value: n };
    }
    case 'time': {
      const text = String(form).trim();
      if (text === '') return d.required ? { ok: false, error: 'enter a time' } : { ok: true, value: null };
      return { ok: true, value: text };
    }
    default: {
      const text = String(form);
      if (d.type === 'enum' && text === '') return d.required ? { ok: false, error: 'choose a value' } : { ok: true, value: null };
      if (d.type === 'enum' && !d.choices.includes(text)) return { ok: false, error: `choose one of ${d.choices.join(', ')}` };
      return { ok: true, value: text };
    }
  }
}

/** Converts every field; the field errors found, keyed by parameter name. */
export function collectValues(
  descriptors: readonly ParameterDescriptor[],
  form: Record<string, FormValue>,
): { values: Record<string, unknown>; errors: Record<string, string> } {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const d of descriptors) {
    const converted = toApiValue(d, form[d.name] ?? initialFormValue(d));
    if (converted.ok) values[d.name] = converted.value;
    else errors[d.name] = converted.error;
  }
  return { values, errors };
}

/**
 * Which field each server error belongs to, from the error's `errors` (a PARAMETER_INVALID lists every
 * invalid parameter at `algo_params.x` or `data_params.x`, a 422 at `tag` ...), never from its text.
 */
export function fieldOfServerError(errors: readonly { path: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) {
    // `algo_params.x`, `/algo_params/x` or `x`: the field is the parameter's name.
    const name = e.path.replace(/^\//, '').replaceAll('/', '.').replace(/^(algo_params|data_params|body)\./, '');
    out[name] = e.message;
  }
  return out;
}
