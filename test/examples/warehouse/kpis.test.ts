import { describe, expect, it } from 'vitest';
import { reslotMoves } from '../../../examples/warehouse/kpis/reslot-moves.js';
import { travelDistance } from '../../../examples/warehouse/kpis/travel-distance.js';
import { zoneBalance } from '../../../examples/warehouse/kpis/zone-balance.js';
import { emptyResult, type SlottingResult } from '../../../examples/warehouse/result.js';
import { prepare, warehouseDataset } from './fixtures.js';

const data = prepare(
  warehouseDataset(
    [
      { sku: 'S1', daily_picks: 10, current_location: 'A1' },
      { sku: 'S2', daily_picks: 5, current_location: 'B1' },
      { sku: 'S3', daily_picks: 1 },
    ],
    [
      { location: 'A1', zone: 'A', x: 3, y: 4 },
      { location: 'B1', zone: 'B', x: 10, y: 0 },
      { location: 'B2', zone: 'B', x: 1, y: 1 },
    ],
  ),
);

const result: SlottingResult = {
  depot: { x: 0, y: 0 },
  assignments: [
    { sku: 'S1', location: 'A1' },
    { sku: 'S2', location: 'B2' },
    { sku: 'S3', location: 'B1' },
  ],
  unassigned: [],
};

describe('Travel Distance', () => {
  it('sums daily picks × 2 × Manhattan distance from the depot over slotted SKUs', () => {
    expect(travelDistance.compute(result, data)).toBe(10 * 2 * 7 + 5 * 2 * 2 + 1 * 2 * 10);
    expect(travelDistance).toMatchObject({ unit: 'm', betterWhen: 'LOWER' });
  });

  it('measures from the depot the result carries, or the origin when it carries none', () => {
    expect(travelDistance.compute({ ...result, depot: { x: 10, y: 0 } }, data)).toBe(10 * 2 * 11 + 5 * 2 * 10 + 0);
    const { depot: _, ...withoutDepot } = result;
    expect(travelDistance.compute(withoutDepot, data)).toBe(travelDistance.compute(result, data));
  });

  it('skips assignments naming a SKU or location the data does not hold', () => {
    const stray = { ...result, assignments: [...result.assignments, { sku: 'ghost', location: 'A1' }, { sku: 'S1', location: 'nowhere' }] };
    expect(travelDistance.compute(stray, data)).toBe(travelDistance.compute(result, data));
  });
});

describe('Zone Balance', () => {
  it('is 100 × the picks of the least busy zone over those of the busiest', () => {
    expect(zoneBalance.compute(result, data)).toBeCloseTo((100 * 6) / 10);
    expect(zoneBalance).toMatchObject({ unit: '%', betterWhen: 'HIGHER' });
  });

  it('counts a zone of the layout without picks as 0', () => {
    const onlyA = { ...result, assignments: [{ sku: 'S1', location: 'A1' }] };
    expect(zoneBalance.compute(onlyA, data)).toBe(0);
  });
});

describe('Reslot Moves', () => {
  it('counts slotted SKUs whose location differs from their current one, including SKUs without one', () => {
    expect(reslotMoves.compute(result, data)).toBe(2);
    expect(reslotMoves).toMatchObject({ unit: 'moves', betterWhen: 'LOWER' });
  });
});

describe('every KPI', () => {
  const kpis = [travelDistance, zoneBalance, reslotMoves];

  it('is 0 for an empty result', () => {
    for (const kpi of kpis) expect(kpi.compute(emptyResult(), data)).toBe(0);
  });

  it('is 0 for an empty result on an empty warehouse', () => {
    const empty = prepare(warehouseDataset([], []));
    for (const kpi of kpis) expect(kpi.compute(emptyResult(), empty)).toBe(0);
  });
});
