import { defineResultView } from '../../../src/domain/views.js';
import { slotting, type SlottingResult } from '../result.js';

/** Every SKU and its location (empty when unassigned): the first table view, so the CSV/XLSX export. */
export const assignments = defineResultView({
  name: 'assignments',
  title: 'Assignments',
  kind: 'table',
  appliesTo: slotting,
  render: (result: SlottingResult) => ({
    columns: [
      { name: 'sku', label: 'SKU', type: 'string' },
      { name: 'location', label: 'Location', type: 'string' },
    ],
    rows: (function* () {
      for (const a of result.assignments) yield [a.sku, a.location];
      for (const sku of result.unassigned) yield [sku, null];
    })(),
  }),
});
