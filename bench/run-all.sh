#!/usr/bin/env bash
# Every benchmark, each printing its figures beside its budget and the same-run baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build >/dev/null
PG_URL="${SCENARIST_BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
node --import tsx bench/datasets.bench.ts
node --import tsx bench/etl-scale.bench.ts
node --import tsx bench/scenarios.bench.ts
node --import tsx bench/startup.bench.ts
node --import tsx bench/request-pipeline.bench.ts
node --import tsx bench/auth.bench.ts
node --import tsx bench/pg-status.bench.ts --database-url "$PG_URL"
node --import tsx bench/pg-statements.bench.ts --database-url "$PG_URL"
node --import tsx bench/many-runs.bench.ts --database-url "$PG_URL"
node --import tsx bench/speed-layers.bench.ts --database-url "$PG_URL"
node --import tsx bench/distributed.bench.ts --database-url "$PG_URL"
node --import tsx bench/ui.bench.ts
node --import tsx bench/dev-reload.bench.ts
node --import tsx bench/events.bench.ts
node --import tsx bench/lists.bench.ts --database-url "$PG_URL"
node --import tsx bench/what-if.bench.ts --database-url "$PG_URL"
node --expose-gc --max-semi-space-size=1 --import tsx bench/external.bench.ts
node --import tsx bench/reports.bench.ts
node --import tsx bench/gates.bench.ts --database-url "$PG_URL"
