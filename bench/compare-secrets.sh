#!/usr/bin/env bash
# Comparison of the secrets API between two built checkouts, alternating in one session:
#
#   bench/compare-secrets.sh <baseline-checkout> <candidate-checkout> [rounds=2] [duration=10]
#
# Each checkout must be installed and built (`npx tsc -b`). Runs alternate baseline, candidate,
# baseline, candidate, ... and end with one more baseline run, so a drift of the machine's speed
# shows on both sides. Every run is this checkout's bench/secrets-api.mjs (share and read at 32
# connections, with the raw PostgreSQL ceiling of that run) against the checkout's own built
# service (--root). Compare the ratios to the raw ceiling within a run, the p99s, and the service's
# CPU time per request (the least disturbed by other load on the machine).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
baseline="$(cd "$1" && pwd)"
candidate="$(cd "$2" && pwd)"
rounds="${3:-2}"
duration="${4:-10}"
node="$here/../node_modules/.bin/node"
run() {
  local label="$1" root="$2"
  "$node" "$here/secrets-api.mjs" --root "$root" --only share,read --duration "$duration" --connections 32 |
    awk -v label="$label" -F'|' '/^\| share \(no passphrase\)|^\| read \(one-time\)/ { gsub(/^ +| +$/, "", $2); printf "| %s | %s |%s|%s|%s|%s|%s|%s|%s|\n", label, $2, $3, $4, $5, $6, $7, $8, $9 }'
}
echo "baseline: $baseline"
echo "candidate: $candidate"
echo
echo "| run | scenario | req/s | p50 ms | p99 ms | raw pg req/s | ratio to raw | errors/non-2xx | service CPU µs/req |"
echo "|---|---|---|---|---|---|---|---|---|"
for i in $(seq 1 "$rounds"); do
  run "baseline $i" "$baseline"
  run "candidate $i" "$candidate"
done
run "baseline $((rounds + 1))" "$baseline"
