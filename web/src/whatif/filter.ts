import type { Column } from '../api/types.ts';
import type { Condition, Where } from './edits.ts';
import { parseCell } from './row-where.ts';

/** One row of the editor's filter as typed: a column, how to match it, and the text of its value(s). */
export interface FilterCondition {
  column: string;
  op: 'is' | 'one-of' | 'between';
  /** `is`: the value; `one-of`: values separated by commas; `between`: the lower bound (empty: none). */
  value: string;
  /** `between`: the upper bound (empty: none). */
  to: string;
}

export const OPERATORS: readonly { op: FilterCondition['op']; label: string }[] = [
  { op: 'is', label: 'is' },
  { op: 'one-of', label: 'is one of' },
  { op: 'between', label: 'is between' },
];

/** The filter as the wire's `where`, or the first condition that does not read (named for the planner). */
export function toWhere(columns: readonly Column[], conditions: readonly FilterCondition[]): { ok: true; where: Where } | { ok: false; error: string } {
  const where: Where = {};
  for (const condition of conditions) {
    const column = columns.find((c) => c.name === condition.column);
    if (!column) return { ok: false, error: `choose a column to filter by` };
    const read = readCondition(column, condition);
    if (!read.ok) return read;
    if (read.condition !== undefined) where[column.name] = read.condition;
  }
  return { ok: true, where };
}

function readCondition(column: Column, condition: FilterCondition): { ok: true; condition?: Condition } | { ok: false; error: string } {
  if (condition.op === 'one-of') {
    const values = [];
    for (const text of condition.value.split(',').filter((t) => t.trim() !== '')) {
      const parsed = parseCell(column, column.type === 'string' ? text.trim() : text);
      if (!parsed.ok) return parsed;
      values.push(parsed.value);
    }
    return values.length === 0 ? { ok: false, error: `list the values of ${column.name} to keep` } : { ok: true, condition: values };
  }
  if (condition.op === 'between') {
    const range: { gte?: number | string; lte?: number | string } = {};
    for (const [bound, text] of [['gte', condition.value], ['lte', condition.to]] as const) {
      if (text.trim() === '') continue;
      const parsed = parseCell(column, text);
      if (!parsed.ok) return parsed;
      if (typeof parsed.value === 'number' || typeof parsed.value === 'string') range[bound] = parsed.value;
    }
    // No bound at all: the condition keeps every row, so it is left out.
    return Object.keys(range).length === 0 ? { ok: true } : { ok: true, condition: range };
  }
  const parsed = parseCell(column, condition.value);
  return parsed.ok ? { ok: true, condition: parsed.value } : parsed;
}
