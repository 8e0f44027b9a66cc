import { formatParam } from '../format.ts';
import { isDelete, isInsert, isRange, type Condition, type Edit, type Where } from './edits.ts';

/** A column's name as words: `daily_picks` reads "daily picks". */
export const columnWords = (name: string) => name.replace(/[_]+/g, ' ').trim();

/**
 * An edit as a planner reads it: "daily picks × 1.10 where zone = A", "capacity set to 3 where
 * location = A-01-001-1", "2 rows added", "rows deleted where zone = C". The table is not in the
 * sentence (the list shows it beside); `rows`, when known, follows: "…: 37 rows".
 */
export function editSentence(edit: Edit, rows?: number): string {
  const count = rows === undefined ? '' : `: ${rowCount(rows)}`;
  if (isInsert(edit)) return `${rowCount(edit.insert.length)} added${insertedKeys(edit.insert)}`;
  if (isDelete(edit)) return `rows deleted ${whereWords(edit.delete.where)}${count}`;
  const { set = {}, scale = {} } = edit.update;
  const changes = [
    ...Object.entries(scale).map(([name, factor]) => `${columnWords(name)} × ${factorText(factor)}`),
    ...Object.entries(set).map(([name, value]) => `${columnWords(name)} set to ${formatParam(value)}`),
  ];
  return `${changes.join(', ')} ${whereWords(edit.update.where)}${count}`;
}

export const rowCount = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'row' : 'rows'}`;

/** A factor with at least two decimals (× 1.10, × 0.95), more when it has them (× 1.125). */
function factorText(factor: number): string {
  return factor.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 6 });
}

/** "where zone = A and x between 1 and 5", or "in every row" for the empty where. */
export function whereWords(where: Where): string {
  const parts = Object.entries(where).map(([name, condition]) => conditionWords(columnWords(name), condition));
  return parts.length === 0 ? 'in every row' : `where ${parts.join(' and ')}`;
}

function conditionWords(column: string, condition: Condition): string {
  if (Array.isArray(condition)) return `${column} is one of ${condition.map(formatParam).join(', ')}`;
  if (isRange(condition)) {
    const { gte, lte } = condition;
    if (gte !== undefined && lte !== undefined) return `${column} between ${formatParam(gte)} and ${formatParam(lte)}`;
    if (gte !== undefined) return `${column} ≥ ${formatParam(gte)}`;
    if (lte !== undefined) return `${column} ≤ ${formatParam(lte)}`;
    return `${column} has any value`;
  }
  return `${column} = ${formatParam(condition)}`;
}

/** The first values of the added rows, so two inserts read apart: " (SKU-9001, SKU-9002)". */
function insertedKeys(records: readonly Record<string, unknown>[]): string {
  const firsts = records.slice(0, 3).map((r) => formatParam(Object.values(r)[0]));
  if (firsts.length === 0) return '';
  return ` (${firsts.join(', ')}${records.length > 3 ? ', …' : ''})`;
}
