import { useApi } from '../api/context.tsx';
import { saveGateReport } from '../api/gates.ts';
import { SaveAsReport } from '../reports/SaveAsReport.tsx';

/**
 * A complete gate's "Save as report…": freezes its verdict table, intervals, paired differences and
 * inputs with a title and a note, then opens the report's permalink.
 */
export function SaveGateReportControl({ sid, gid, name }: { sid: string; gid: string; name: string }) {
  const api = useApi();
  return (
    <SaveAsReport
      sid={sid}
      dialogTitle="Save gate as report"
      initialTitle={`Gate ${name}`}
      intro="The report keeps this gate's verdict as it is now (the table, each interval, the paired differences, the inputs), even after its runs are rerun or the gate is deleted."
      save={(input) => saveGateReport(api, sid, gid, input)}
    />
  );
}
