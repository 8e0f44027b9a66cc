/** The typed view of a warehouse dataset that algorithms and KPIs work on (see `data-source.ts`). */

export interface Sku {
  readonly id: string;
  readonly description: string | null;
  readonly category: string;
  readonly dailyPicks: number;
  readonly currentLocation: string | null;
  /** Zone of `currentLocation`, or null when the SKU has none or it is not in the layout. */
  readonly currentZone: string | null;
}

export interface Location {
  readonly id: string;
  readonly zone: string;
  readonly aisle: number;
  readonly bay: number;
  readonly level: number;
  readonly x: number;
  readonly y: number;
  /** How many SKUs the location holds. */
  readonly capacity: number;
}

export interface WarehouseData {
  /** The SKUs selected by the data parameters, in file order. */
  readonly skus: readonly Sku[];
  /** Every location of the layout, in file order. */
  readonly locations: readonly Location[];
  readonly skuById: ReadonlyMap<string, Sku>;
  readonly locationById: ReadonlyMap<string, Location>;
  /** Position of each location in `locations`, so plans can work on dense integer indices. */
  readonly locationIndex: ReadonlyMap<string, number>;
}
