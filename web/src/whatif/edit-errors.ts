import type { FieldError } from '../api/http.ts';

/**
 * The server's refusals of a branch, sorted to where the editor shows them: `edits[3].set.demand` at
 * edit 3 (with the rest of its path, `set.demand`, beside the message), everything else (`tag`,
 * `algo_params.x`) at the form's fields.
 */
export function splitEditErrors(errors: readonly FieldError[]): { byEdit: Map<number, FieldError[]>; others: FieldError[] } {
  const byEdit = new Map<number, FieldError[]>();
  const others: FieldError[] = [];
  for (const error of errors) {
    // `edits[3].set.demand`, `/edits/3/set/demand` or `body.edits[3]`: the edit's place in the list.
    const match = /^(?:\/?body[./])?\/?edits(?:\[(\d+)\]|\/(\d+))(?:[./]?(.*))?$/.exec(error.path);
    const index = match ? Number(match[1] ?? match[2]) : NaN;
    if (!Number.isInteger(index)) {
      others.push(error);
      continue;
    }
    const rest = (match?.[3] ?? '').replaceAll('/', '.');
    byEdit.set(index, [...(byEdit.get(index) ?? []), { path: rest, message: error.message }]);
  }
  return { byEdit, others };
}
