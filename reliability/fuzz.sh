#!/usr/bin/env bash
# The long reliability run: 20x the CI fuzz cases, 40 SIGKILL points, then the full soak.
# Usage: reliability/fuzz.sh [SEED]   (build first: pnpm build)
set -euo pipefail
cd "$(dirname "$0")/.."
export RELIABILITY_FULL=1
export RELIABILITY_SEED="${1:-${RELIABILITY_SEED:-8}}"
pnpm --filter @tfpipe/sink-tfrecord exec vitest run src/tfrecord.fuzz.test.ts
pnpm --filter @tfpipe/source-csv exec vitest run src/csv.fuzz.test.ts
pnpm --filter @tfpipe/cli exec vitest run src/convert.crash.test.ts src/cli.faults.test.ts
node reliability/soak.mjs
