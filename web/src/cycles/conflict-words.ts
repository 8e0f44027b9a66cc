/**
 * Where in a dataset's edits a rebase conflict lies, in words: the server names it by path
 * (`edits[1].insert[0]`, `edits[2].update.where.zone`); a planner reads "edit 2, inserted row 1" or
 * "edit 3, its condition on zone". A path of another form is shown as it is.
 */
export function conflictPlace(path: string): string {
  const head = /^edits\[(\d+)\]\.?(.*)$/.exec(path);
  if (!head) return path;
  const edit = `edit ${Number(head[1]) + 1}`;
  const rest = head[2] ?? '';
  if (rest === '') return edit;
  const inserted = /^insert\[(\d+)\]/.exec(rest);
  if (inserted) return `${edit}, inserted row ${Number(inserted[1]) + 1}`;
  const part = /^(?:update|delete)\.(where|set|scale)\.?([^.[]*)/.exec(rest);
  if (part) {
    const column = part[2] ? ` on ${part[2].replace(/_+/g, ' ')}` : '';
    const what = part[1] === 'where' ? 'its condition' : part[1] === 'set' ? 'the value it sets' : 'its factor';
    return `${edit}, ${what}${column}`;
  }
  return `${edit} (${rest})`;
}

/** The index of the edit a conflict's path names (`edits[2]…` → 2), or null for another form. */
export function conflictEditIndex(path: string): number | null {
  const head = /^edits\[(\d+)\]/.exec(path);
  return head ? Number(head[1]) : null;
}
