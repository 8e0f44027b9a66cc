import { fileURLToPath } from 'node:url';
import { defineDomain } from '../../src/domain/define.js';
import { asIsSlotting } from './algorithms/as-is.js';
import { busy } from './algorithms/diagnostics/busy.js';
import { fail } from './algorithms/diagnostics/fail.js';
import { instant } from './algorithms/diagnostics/instant.js';
import { parameterMatrix } from './algorithms/diagnostics/parameter-matrix.js';
import { sleep } from './algorithms/diagnostics/sleep.js';
import { greedySlotting } from './algorithms/greedy.js';
import { localSearchPython } from './algorithms/local-search-python.js';
import { simulatedAnnealingSlotting } from './algorithms/simulated-annealing.js';
import { dataSource } from './data-source.js';
import { failingKpi } from './kpis/failing-kpi.js';
import { reslotMoves } from './kpis/reslot-moves.js';
import { travelDistance } from './kpis/travel-distance.js';
import { zoneBalance } from './kpis/zone-balance.js';
import { schemas } from './schemas.js';
import { assignments } from './views/assignments.js';
import { dailyPicks } from './views/daily-picks.js';
import { floorHeatmap } from './views/floor-heatmap.js';
import { layoutByZone } from './views/layout-by-zone.js';
import { moves } from './views/moves.js';
import { travelByZone } from './views/travel-by-zone.js';

/** Resolved next to this module: the build copies `sample/` beside the compiled `index.js`. */
const sample = (file: string) => fileURLToPath(new URL(`./sample/${file}`, import.meta.url));

/**
 * Warehouse slotting, the bundled example domain: SKUs with a pick frequency are assigned to storage
 * locations, fast movers close to the depot to cut walking.
 */
export default defineDomain({
  name: 'warehouse',
  schemas,
  algorithms: [asIsSlotting, greedySlotting, simulatedAnnealingSlotting, localSearchPython, instant, sleep, busy, fail, parameterMatrix],
  kpis: [travelDistance, zoneBalance, reslotMoves, failingKpi],
  // Assignments is the first table view of a slotting result: the CSV and XLSX result export.
  views: [layoutByZone, dailyPicks, floorHeatmap, assignments, moves, travelByZone],
  dataSource,
  seed: { datasetKey: 'example', files: [sample('sku_data.csv'), sample('warehouse_layout.csv')] },
});
