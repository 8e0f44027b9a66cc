/**
 * Layers you can see (docs/architecture.md, "Layers"): the top-level folders of `src/` sit on the
 * layers below, lowest first, and a folder imports only from folders on lower layers (never from one
 * on its own layer or above). test/docs/layers.test.ts holds docs/architecture.md's diagram and table
 * to this list and every folder of `src/` to a place in it. The files at the root of `src/` stand
 * apart: `errors.ts` is the shared error registry every layer may use (with
 * `error-factories.ts`, its wording), `index.ts` (the package's
 * public API) and `cli.ts` (the command line) are entry points nothing imports.
 */
export const LAYERS = [
  ['model', 'config', 'params', 'cache', 'async'],
  ['domain'],
  ['store', 'exports'],
  ['executor', 'views', 'sessions', 'client'],
  ['scenarios', 'events', 'auth', 'audit'],
  ['datasets', 'experiments', 'webhooks', 'metrics', 'decisions', 'gates'],
  ['schedules'],
  ['http', 'testing'],
  ['runtime'],
  ['cli'],
];

/** One rule per layer: its folders import no folder of their own layer or one above it. */
const layerOrder = LAYERS.map((folders, layer) => ({
  name: `layer-${layer}-imports-below`,
  comment: `${folders.join(', ')} (layer ${layer}) import only folders of lower layers.`,
  severity: 'error',
  from: { path: `^src/(${folders.join('|')})/` },
  // `$1` is the importing folder: its own files are not an import across folders.
  to: { path: `^src/(${LAYERS.slice(layer).flat().join('|')})/`, pathNot: '^src/$1/' },
}));

export default {
  forbidden: [
    ...layerOrder,
    {
      name: 'no-folder-cycles',
      comment: 'Top-level folders of src/ form layers: a folder must not depend on one that depends on it.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+$' },
      to: { path: '^src/[^/]+$', circular: true },
    },
    {
      name: 'routes-call-services',
      comment: 'A route reads and writes through the services, never the store (the shared model in src/model/ is below both).',
      severity: 'error',
      from: { path: '^src/http/routes/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'sql-lives-in-store',
      comment: 'Queries are built in src/store/ only; other layers may name Kysely types (a transaction a service owns), never build SQL.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^node_modules/kysely/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'run-host-serves-both-executors',
      comment: 'The run host, its threads, the queue and the run core (src/executor/{host,queue,run}/) are what both executors share: they import neither executor.',
      severity: 'error',
      from: { path: '^src/executor/(host|queue|run)/' },
      to: { path: '^src/executor/(local|distributed)/' },
    },
    {
      name: 'executors-stand-apart',
      comment: 'The local and the distributed executor share only what sits below them in src/executor/.',
      severity: 'error',
      from: { path: '^src/executor/(local|distributed)/' },
      to: { path: '^src/executor/(local|distributed)/', pathNot: '^src/executor/$1/' },
    },
    {
      name: 'run-operations-behind-their-index',
      comment: 'Each write of run state is a file of src/store/runs/; the rest of src/ reaches them through RunsRepository (src/store/runs-repository.ts).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^src/store/runs/' },
    },
    {
      name: 'entry-points-are-not-imported',
      comment: 'src/index.ts and src/cli.ts sit above every layer.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/(index|cli)\\.ts$' },
    },
    {
      name: 'errors-registry-is-a-leaf',
      comment: 'src/errors.ts is below every layer: it imports nothing of src/.',
      severity: 'error',
      from: { path: '^src/errors\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'error-factories-sit-on-the-registry',
      comment: 'src/error-factories.ts words the errors of every layer: it imports the registry and nothing else of src/.',
      severity: 'error',
      from: { path: '^src/error-factories\\.ts$' },
      to: { path: '^src/', pathNot: '^src/errors\\.ts$' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
