import { useApi } from '../api/context.tsx';
import { createReport } from '../api/decisions.ts';
import { SaveAsReport } from '../reports/SaveAsReport.tsx';

/**
 * Compare's "Save as report…": freezes the comparison shown (these scenarios, this baseline) with a
 * title and a note, then opens the report's permalink.
 */
export function SaveReportControl({ sid, ids, baseline }: { sid: string; ids: readonly string[]; baseline: string }) {
  const api = useApi();
  return (
    <SaveAsReport
      sid={sid}
      dialogTitle="Save as report"
      intro="The report keeps this comparison as it is now (KPIs, parameters, inputs and every view), even after its scenarios change or are deleted."
      pendingNote="Drawing every view…"
      save={(input) => createReport(api, sid, { ...input, ids: [...ids], baseline })}
    />
  );
}
