import type { Actor } from '../model/actor.js';

/** What every saved report says of itself, whatever it froze (a comparison, a gate). */
export interface ReportHeading {
  readonly title: string;
  readonly note: string | null;
  readonly created_at: string;
  readonly created_by: Actor;
}

/**
 * The first rows of a report workbook's About sheet (field, value): its title, note, and who saved it
 * when, the same in a comparison's workbook and a gate's so that one reader takes both.
 */
export function reportHeadingRows(report: ReportHeading): [string, string | null][] {
  return [
    ['title', report.title],
    ['note', report.note],
    ['created_at', report.created_at],
    ['created_by', report.created_by.name ?? report.created_by.id],
    ['created_by_id', report.created_by.id],
  ];
}
