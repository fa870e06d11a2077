#!/usr/bin/env bash
# Runs the real-model check (scripts/real-model/run.mjs) against the built CLI; see setup.sh for the
# cache folder (first argument, else $PANTO_REAL_MODEL_CACHE, else ~/.cache/panto-real-model).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ -f "$here/../../dist/cli/main.js" ] || (cd "$here/../.." && npm run build)
exec node "$here/run.mjs" "$@"
