/**
 * The speed layers: parts that exist only to make a hot path faster, each of which must earn its
 * place. A benchmark switches some off for a server it starts (the `bench_layers_off` setting, as
 * `SCENARIST_BENCH_LAYERS_OFF`, a comma list) to measure what each saves beside the same server with
 * all of them on (docs/benchmarks.md). Switching one off never changes what the service answers, only
 * how fast. The setting is read once where the process is assembled and handed to each layer's owner;
 * nothing reads it at import.
 */
export const SPEED_LAYERS = [
  /** SQLite statements kept prepared by their text (sqlite-connection.ts). */
  'statement-cache',
  /** Hot queries built and compiled by Kysely once, then run with new values (prepared-query.ts). */
  'compiled-queries',
  /** PostgreSQL statements run as named prepared statements once repeated (named-statements.ts). */
  'named-statements',
  /** The local executor's knowledge that lets a dispatch skip empty looks at the queue (quiet-queue.ts). */
  'quiet-queue',
  /** Session names resolved and run statuses answered from memory (status-cache.ts, sessions/service.ts). */
  'caches',
] as const;

export type SpeedLayer = (typeof SPEED_LAYERS)[number];

export const LAYERS_OFF_ENV = 'SCENARIST_BENCH_LAYERS_OFF';

/** The layers a `SCENARIST_BENCH_LAYERS_OFF` value names: an unknown name is refused, not ignored. */
export function parseLayersOff(value: string | undefined): ReadonlySet<SpeedLayer> {
  const names = (value ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!(SPEED_LAYERS as readonly string[]).includes(name)) throw new Error(`${LAYERS_OFF_ENV}: unknown speed layer '${name}' (known: ${SPEED_LAYERS.join(', ')})`);
  }
  return new Set(names as SpeedLayer[]);
}

/** Whether `layer` is on, given the layers switched off (none unless a benchmark said so). */
export function speedLayerOn(layer: SpeedLayer, off: ReadonlySet<SpeedLayer> = NONE_OFF): boolean {
  return !off.has(layer);
}

/** Every layer on. */
export const NONE_OFF: ReadonlySet<SpeedLayer> = new Set();
