#!/usr/bin/env bash
# Runs Errand's benchmark suite and prints one table of figures, targets and
# verdicts (docs/BENCHMARKS.md explains each figure and how it is taken).
#
#   e2e/bench/run.sh           full sizes (about 20 minutes with the
#                              10,000-conversation history; seeded once and
#                              kept in build/bench/history-10k)
#   e2e/bench/run.sh --smoke   every measurement at tiny sizes, for CI: fails
#                              only when a measurement breaks, never on a time
#
# It builds what it runs: the bench tools in build/bin and, unless
# ERRAND_BENCH_NOBUILD=1, the frontend and the dev and production binaries. Figures
# go to build/bench/results.jsonl (or $ERRAND_BENCH_OUT).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
SMOKE=""
[[ "${1:-}" == "--smoke" ]] && SMOKE=1

export NO_AT_BRIDGE=1
export DBUS_SESSION_BUS_ADDRESS=disabled:
GOBIN=$(go env GOPATH)/bin
mkdir -p build/bench build/bin
OUT=${ERRAND_BENCH_OUT:-$ROOT/build/bench/results.jsonl}
: >"$OUT"
XVFB=(xvfb-run -a -s "-screen 0 1280x900x24")
# A section that breaks is reported at the end; the others still run.
FAILED=()
section() {
	local name=$1
	shift
	"$@" || FAILED+=("$name")
}
# Other work on the machine skews every figure: the 1-minute load average
# is recorded before each section (on this 2-CPU machine, ~0 is quiet).
step() {
	printf '\n== %s\n' "$*" >&2
	printf '{"name":"env.loadavg.%s","value":%s,"unit":"load"}\n' "$(echo "$*" | cut -c1-24 | tr -c 'a-zA-Z0-9\n' '_')" "$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT"
}

step "build"
for t in benchmodel seed history desktop; do go build -o "build/bin/$t" "./e2e/bench/$t"; done
go build -tags desktop,production -ldflags "-s -w" -o build/bin/wailsbare ./e2e/bench/wailsbare
if [[ -z "${ERRAND_BENCH_NOBUILD:-}" ]]; then
	(cd frontend && npm run build >/dev/null)
	go build -tags dev -o build/bin/errand-dev .
	# wails build runs the app to generate bindings: give it an empty data
	# directory so a database from another version cannot stop it.
	wails_build() {
		local tmpdata
		tmpdata=$(mktemp -d)
		ERRAND_DATA_DIR=$tmpdata "$GOBIN/wails" build -s -m -nosyncgomod -o errand >/dev/null 2>&1
		rm -rf "$tmpdata"
	}
	# The production build as a release is made: with the window's web
	# process extension (app/webmemory) and the copy of a first start's
	# screen its own window takes (scripts/first-start.sh).
	make --no-print-directory webmemory >&2
	wails_build
	./scripts/first-start.sh >&2
	wails_build
fi

step "1–3, 7, 16 Stop, runner overhead, streaming, a 5 MB reply, a 12-megapixel photo (go test -bench, backend/agent)"
section "go benchmarks" env ERRAND_BENCH_OUT="$OUT" ERRAND_BENCH_SMOKE="$SMOKE" \
	go test -run '^$' -bench . -benchtime 1x -count 1 -timeout 30m ./backend/agent >&2

step "7 A long reply: appends to a 5 MB message (go test -bench, backend/store)"
section "store appends" env ERRAND_BENCH_OUT="$OUT" ERRAND_BENCH_SMOKE="$SMOKE" \
	go test -run '^$' -bench AppendContent -benchtime 1x -count 1 ./backend/store >&2

step "14 Switching branches in a 10,000-message conversation (go test -bench, backend/store)"
section "branch switch" env ERRAND_BENCH_OUT="$OUT" ERRAND_BENCH_SMOKE="$SMOKE" \
	go test -run '^$' -bench BranchSwitch -benchtime 1x -count 1 ./backend/store >&2

step "15 Search over 1,000,000 messages (go test -bench, backend/store)"
section "search" env ERRAND_BENCH_OUT="$OUT" ERRAND_BENCH_SMOKE="$SMOKE" \
	go test -run '^$' -bench Search -benchtime 1x -count 1 -timeout 30m ./backend/store >&2

step "1 Stop → a shell command's process tree gone (go test -bench, backend/tools)"
section "process tree" bash -c 'go test -run "^$" -bench StopKills -benchtime "$1" -count 1 ./backend/tools |
	awk '"'"'/^BenchmarkStopKills/ { for (i = 1; i < NF; i++) { if ($(i+1) == "p50-ms") p50 = $i; if ($(i+1) == "p99-ms") p99 = $i } }
	END { printf "{\"name\":\"stop.process_tree_gone.p50\",\"value\":%s,\"unit\":\"ms\"}\n{\"name\":\"stop.process_tree_gone.p99\",\"value\":%s,\"unit\":\"ms\"}\n", p50, p99 }'"'"' >>"$2"' \
	_ "$([[ -n "$SMOKE" ]] && echo 3x || echo 200x)" "$OUT"

step "9 MCP: a tool call through an MCP server against a built-in one (go test -bench, backend/mcp)"
section "mcp call" env ERRAND_BENCH_OUT="$OUT" ERRAND_BENCH_SMOKE="$SMOKE" \
	go test -run '^$' -bench ToolCallOverhead -benchtime 1x -count 1 ./backend/mcp >&2

step "4 History in the window's code: 10,000 messages into the store and the list (vitest bench, jsdom)"
section "frontend bench" bash -c '(cd frontend && npx vitest bench --run --outputJson "$1" >&2) && node e2e/bench/vitest.mjs "$1" >>"$2"' \
	_ "$ROOT/build/bench/vitest.json" "$OUT"

step "4 History: seed"
if [[ -n "$SMOKE" ]]; then
	SEED=$(mktemp -d)/history
	build/bin/seed -dir "$SEED" -convs 200 -msgs 6000 -big 1000 >&2
else
	# Seeded once and kept; the marker names the seed's version (bump it
	# when e2e/bench/seed changes what it writes).
	SEED=$ROOT/build/bench/history-10k
	if [[ ! -f "$SEED/errand.db" || ! -f "$SEED/.seeded-v3" ]]; then
		rm -rf "$SEED"
		build/bin/seed -dir "$SEED" -convs 10000 -msgs 1000000 -big 10000 >&2
		touch "$SEED/.seeded-v3"
	fi
fi

step "4 History: store queries"
section "history" bash -c 'build/bin/history -dir "$1" -runs "$2" >>"$3"' _ "$SEED" "$([[ -n "$SMOKE" ]] && echo 3 || echo 20)" "$OUT"

step "4–7 Production window: cold start, idle memory, a 200-step task, streaming, Stop in a 5 MB reply (Xvfb)"
section "desktop" "${XVFB[@]}" build/bin/desktop -app build/bin/errand -bare build/bin/wailsbare -seeded "$SEED" -restart -out "$OUT" \
	-runs "$([[ -n "$SMOKE" ]] && echo 1 || echo 5)" -seeded-runs "$([[ -n "$SMOKE" ]] && echo 1 || echo 3)" \
	-settle "$([[ -n "$SMOKE" ]] && echo 1s || echo 5s)" -steps "$([[ -n "$SMOKE" ]] && echo 3 || echo 200)" \
	-stops "$([[ -n "$SMOKE" ]] && echo 3 || echo 9)" -stream "$([[ -n "$SMOKE" ]] && echo 2000 || echo 5000)" -shots build/bench/shots >&2

step "7 Production window: Stop while a 5 MB reply streams at 1,000 tokens/s, beside the bare window streaming as fast (Xvfb)"
section "desktop-paced-stop" "${XVFB[@]}" build/bin/desktop -app build/bin/errand -bare build/bin/wailsbare -out "$OUT" \
	-runs 0 -seeded-runs 0 -stops "$([[ -n "$SMOKE" ]] && echo 3 || echo 9)" -stop-pace 1000 >&2

step "1, 3, 4, 6, 14 The UI in Chromium against the dev build (Xvfb)"
section "window" "${XVFB[@]}" node e2e/bench/window.mjs --out "$OUT" --seeded "$SEED" ${SMOKE:+--smoke} >&2

[[ -n "$SMOKE" ]] && rm -rf "$(dirname "$SEED")"

step "results ($OUT)"
node e2e/bench/table.mjs "$OUT" ${SMOKE:+--smoke} || FAILED+=("figures missing")
if ((${#FAILED[@]})); then
	echo "broken: ${FAILED[*]} (see the output above)" >&2
	exit 1
fi
