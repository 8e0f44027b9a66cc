import { describe, expect, it } from 'vitest';
import { asIsSlotting } from '../../../examples/warehouse/algorithms/as-is.js';
import { greedySlotting } from '../../../examples/warehouse/algorithms/greedy.js';
import { travelDistance } from '../../../examples/warehouse/kpis/travel-distance.js';
import type { WarehouseData } from '../../../examples/warehouse/model.js';
import { mulberry32 } from '../../../examples/warehouse/random.js';
import type { SlottingResult } from '../../../examples/warehouse/result.js';
import { fakeContext, prepare, warehouseDataset, type LocationRow, type SkuRow } from './fixtures.js';
import { largeData, sampleData } from './sample-data.js';

const defaults = { depot_x: 0, depot_y: 0, respect_zones: true };
const travel = (result: SlottingResult, data: WarehouseData) => travelDistance.compute(result, data);
const locationOf = (result: SlottingResult) => new Map(result.assignments.map((a) => [a.sku, a.location]));

/** A random warehouse where every SKU sits in a distinct location today, so as-is is feasible. */
function randomWarehouse(seed: number): WarehouseData {
  const random = mulberry32(seed);
  const locations: LocationRow[] = Array.from({ length: 30 }, (_, i) => ({
    location: `L${i}`,
    zone: i % 3 === 0 ? 'A' : 'B',
    x: Math.round(random() * 50),
    y: Math.round(random() * 20),
  }));
  const skus: SkuRow[] = Array.from({ length: 25 }, (_, i) => ({ sku: `S${i}`, daily_picks: Math.round(random() * 100), current_location: `L${i}` }));
  return prepare(warehouseDataset(skus, locations));
}

describe('As-Is Slotting', () => {
  it('keeps every SKU at its current location and leaves SKUs without a known one unassigned', async () => {
    const data = prepare(
      warehouseDataset(
        [
          { sku: 'S1', daily_picks: 1, current_location: 'L1' },
          { sku: 'S2', daily_picks: 1 },
          { sku: 'S3', daily_picks: 1, current_location: 'gone' },
        ],
        [{ location: 'L1', x: 1, y: 1 }],
      ),
    );
    const result = await asIsSlotting.run(data, { depot_x: 0, depot_y: 0 }, fakeContext().ctx);
    expect(result).toEqual({ depot: { x: 0, y: 0 }, assignments: [{ sku: 'S1', location: 'L1' }], unassigned: ['S2', 'S3'] });
  });
});

describe('Greedy Slotting', () => {
  it('puts the fastest movers in the locations closest to the depot', async () => {
    const data = prepare(
      warehouseDataset(
        [
          { sku: 'slow', daily_picks: 1 },
          { sku: 'fast', daily_picks: 50 },
          { sku: 'medium', daily_picks: 10 },
        ],
        [
          { location: 'far', x: 30, y: 0 },
          { location: 'near', x: 1, y: 1 },
          { location: 'mid', x: 5, y: 5 },
        ],
      ),
    );
    const result = await greedySlotting.run(data, defaults, fakeContext().ctx);
    expect(Object.fromEntries(locationOf(result))).toEqual({ fast: 'near', medium: 'mid', slow: 'far' });
  });

  it('measures closeness from the depot it is given', async () => {
    const data = prepare(
      warehouseDataset([{ sku: 'fast', daily_picks: 50 }], [
        { location: 'west', x: 0, y: 0 },
        { location: 'east', x: 100, y: 0 },
      ]),
    );
    const result = await greedySlotting.run(data, { ...defaults, depot_x: 90 }, fakeContext().ctx);
    expect(result.assignments).toEqual([{ sku: 'fast', location: 'east' }]);
    expect(result.depot).toEqual({ x: 90, y: 0 });
  });

  it('fills a location up to its capacity and leaves SKUs unassigned when no room is left', async () => {
    const data = prepare(
      warehouseDataset(
        [
          { sku: 'S1', daily_picks: 3 },
          { sku: 'S2', daily_picks: 2 },
          { sku: 'S3', daily_picks: 1 },
        ],
        [{ location: 'L', x: 1, y: 0, capacity: 2 }],
      ),
    );
    const result = await greedySlotting.run(data, defaults, fakeContext().ctx);
    expect(result.assignments).toEqual([
      { sku: 'S1', location: 'L' },
      { sku: 'S2', location: 'L' },
    ]);
    expect(result.unassigned).toEqual(['S3']);
  });

  it('keeps each SKU in the zone of its current location when respecting zones, and lets unslotted SKUs go anywhere', async () => {
    const data = prepare(
      warehouseDataset(
        [
          { sku: 'inB', daily_picks: 100, current_location: 'B-far' },
          { sku: 'new', daily_picks: 50 },
        ],
        [
          { location: 'A-near', zone: 'A', x: 1, y: 0 },
          { location: 'B-far', zone: 'B', x: 40, y: 0 },
          { location: 'B-mid', zone: 'B', x: 20, y: 0 },
        ],
      ),
    );
    const zoned = await greedySlotting.run(data, defaults, fakeContext().ctx);
    expect(Object.fromEntries(locationOf(zoned))).toEqual({ inB: 'B-mid', new: 'A-near' });
    const free = await greedySlotting.run(data, { ...defaults, respect_zones: false }, fakeContext().ctx);
    expect(Object.fromEntries(locationOf(free))).toEqual({ inB: 'A-near', new: 'B-mid' });
  });

  it('never travels more than as-is when every SKU has a current location, with or without zones', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const data = randomWarehouse(seed);
      const asIs = travel(await asIsSlotting.run(data, { depot_x: 0, depot_y: 0 }, fakeContext().ctx), data);
      for (const respect_zones of [true, false]) {
        const greedy = await greedySlotting.run(data, { ...defaults, respect_zones }, fakeContext().ctx);
        expect(greedy.unassigned).toEqual([]);
        expect(travel(greedy, data)).toBeLessThanOrEqual(asIs + 1e-9);
      }
    }
  });

  it('travels less than as-is on the sample data', async () => {
    const data = sampleData();
    const asIs = await asIsSlotting.run(data, { depot_x: 0, depot_y: 0 }, fakeContext().ctx);
    const greedy = await greedySlotting.run(data, defaults, fakeContext().ctx);
    expect(travel(greedy, data)).toBeLessThan(travel(asIs, data));
  });

  it('slots 100k SKUs, each location used at most to its capacity', async () => {
    const data = largeData(100_000);
    const result = await greedySlotting.run(data, defaults, fakeContext().ctx);
    expect(result.assignments.length + result.unassigned.length).toBe(100_000);
    const used = new Map<string, number>();
    for (const { location } of result.assignments) used.set(location, (used.get(location) ?? 0) + 1);
    for (const [location, count] of used) expect(count).toBeLessThanOrEqual(data.locationById.get(location)!.capacity);
  });
});
