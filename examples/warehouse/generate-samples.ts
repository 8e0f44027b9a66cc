/**
 * Deterministic warehouse data: the committed sample files and, with larger sizes, benchmark inputs.
 *
 *   node --import tsx examples/warehouse/generate-samples.ts [--skus N] [--locations M] [--seed S] [--out DIR]
 *
 * Without flags it rewrites `sample/` (200 SKUs, 240 locations, seed 1). Same options, byte-identical files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mulberry32, randomInt, type Random } from './random.js';

export interface GenerateOptions {
  readonly skus: number;
  readonly locations: number;
  readonly seed: number;
}

export interface GeneratedWarehouse {
  /** `sku_data.csv`, semicolon-delimited (as spreadsheet exports in many locales are). */
  readonly skuCsv: string;
  /** `warehouse_layout.csv`, comma-delimited. */
  readonly layoutCsv: string;
}

const ZONES = ['A', 'B', 'C'];
const LEVELS = 4;
const AISLE_PITCH_M = 3.2;
const BAY_WIDTH_M = 1.3;
/** Categories with the products a description may name. */
const PRODUCTS: Readonly<Record<string, readonly string[]>> = {
  beverages: ['sparkling water', 'orange juice', 'iced tea'],
  snacks: ['potato chips', 'chocolate bar', 'salted nuts'],
  household: ['dish soap', 'paper towels', 'laundry pods'],
  personal_care: ['shampoo', 'toothpaste', 'hand cream'],
  frozen: ['pizza', 'ice cream', 'peas'],
  dairy: ['yoghurt', 'butter', 'cheddar'],
  produce: ['apples', 'tomatoes', 'bananas'],
  pet: ['cat food', 'dog treats', 'bird seed'],
};
const CATEGORIES = Object.keys(PRODUCTS);
const ADJECTIVES = ['Organic', 'Classic', 'Family size', 'Light', 'Premium', 'Value', 'Extra', 'Mini'];
const PACKS = ['1 x 0.5 l', '6 x 0.5 l', '175 g', '500 ml', '2 x 350 g', '4 x 125 g', '1 kg', '12 x 85 g'];

interface GeneratedLocation {
  readonly id: string;
  readonly capacity: number;
}

export function generateWarehouse(options: GenerateOptions): GeneratedWarehouse {
  const random = mulberry32(options.seed);
  const { csv: layoutCsv, locations } = generateLayout(options.locations);
  return { layoutCsv, skuCsv: generateSkus(options.skus, locations, random) };
}

/** A roughly square block of aisles, split into contiguous zones along x; floor-level locations hold two SKUs. */
function generateLayout(count: number): { csv: string; locations: GeneratedLocation[] } {
  const aisles = Math.max(1, Math.ceil(Math.sqrt(count / (LEVELS * 2))));
  const bays = Math.max(1, Math.ceil(count / (LEVELS * aisles)));
  const lines = ['location,zone,aisle,bay,level,x,y,capacity'];
  const locations: GeneratedLocation[] = [];
  for (let i = 0; i < count; i++) {
    const [aisle, bay, level] = [Math.floor(i / (bays * LEVELS)), Math.floor(i / LEVELS) % bays, i % LEVELS];
    const zone = ZONES[Math.floor((aisle * ZONES.length) / aisles)]!;
    const id = `${zone}-${pad(aisle + 1, 2)}-${pad(bay + 1, 3)}-${level + 1}`;
    const capacity = level === 0 ? 2 : 1;
    const [x, y] = [2 + aisle * AISLE_PITCH_M, 1.5 + bay * BAY_WIDTH_M];
    lines.push(`${id},${zone},${aisle + 1},${bay + 1},${level + 1},${x.toFixed(2)},${y.toFixed(2)},${capacity}`);
    locations.push({ id, capacity });
  }
  return { csv: lines.join('\n') + '\n', locations };
}

/**
 * SKUs with a skewed pick frequency (few fast movers, many slow ones), slotted today at random: the
 * situation slotting improves on. About 5% are new (no current location), as are those beyond the slots.
 */
function generateSkus(count: number, locations: readonly GeneratedLocation[], random: Random): string {
  const slots = shuffle(
    locations.flatMap((location) => Array<string>(location.capacity).fill(location.id)),
    random,
  );
  const lines = ['sku;description;category;daily_picks;current_location'];
  let nextSlot = 0;
  for (let i = 0; i < count; i++) {
    const category = pick(CATEGORIES, random);
    const product = `${pick(ADJECTIVES, random)} ${pick(PRODUCTS[category]!, random)} ${pick(PACKS, random)}`;
    const description = random() < 0.05 ? '' : product;
    const dailyPicks = (random() ** 4 * 400).toFixed(2);
    const isNew = random() < 0.05 || nextSlot === slots.length;
    const current = isNew ? '' : slots[nextSlot++]!;
    lines.push(`SKU-${pad(i + 1, 6)};${description};${category};${dailyPicks};${current}`);
  }
  return lines.join('\n') + '\n';
}

function shuffle<T>(items: T[], random: Random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function pick<T>(items: readonly T[], random: Random): T {
  return items[randomInt(random, items.length)]!;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function main(argv: readonly string[]): void {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      skus: { type: 'string', default: '200' },
      locations: { type: 'string', default: '240' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: fileURLToPath(new URL('./sample/', import.meta.url)) },
    },
  });
  const options = { skus: count(values.skus, 'skus'), locations: count(values.locations, 'locations'), seed: count(values.seed, 'seed') };
  const { skuCsv, layoutCsv } = generateWarehouse(options);
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, 'sku_data.csv'), skuCsv);
  writeFileSync(join(values.out, 'warehouse_layout.csv'), layoutCsv);
  console.log(`wrote ${options.skus} SKUs and ${options.locations} locations to ${values.out}`);
}

function count(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${flag} must be a non-negative integer, got "${text}"`);
  return n;
}

// Runs only as a script, so the benchmarks and tests can import `generateWarehouse`.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
