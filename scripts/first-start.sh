#!/usr/bin/env bash
# Takes the copy of a first start's screen that a release shows while its
# page loads (app/firststart.go): starts the production build in
# build/bin/errand under Xvfb, as a person's first start (a new data
# folder and home, the demo model), and waits until its window has painted
# its first screen and written the copy to frontend/dist/.first-start.json
# (ERRAND_CAPTURE_FIRST_START). The build must be made again to carry it
# (make first-start does both); the next frontend build removes it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/bin/errand ] || { echo "build first: make build" >&2; exit 1; }
out=$PWD/frontend/dist/.first-start.json
rm -f "$out"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
env -u OPENAI_BASE_URL -u OPENAI_API_KEY -u ERRAND_MODEL \
  HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" XDG_CACHE_HOME="$home/.cache" \
  ERRAND_DATA_DIR="$home/data" ERRAND_CAPTURE_FIRST_START="$out" \
  NO_AT_BRIDGE=1 DBUS_SESSION_BUS_ADDRESS=disabled: \
  xvfb-run -a -s "-screen 0 1280x900x24" bash -euo pipefail -c '
    ./build/bin/errand >"$0/app.log" 2>&1 & app=$!
    trap "kill $app 2>/dev/null || true; wait $app 2>/dev/null || true" EXIT
    # The page writes its first screen once it has been quiet for 2 s;
    # up to two minutes on a loaded machine.
    for _ in $(seq 1 1200); do
      [ -f "$1" ] && exit 0
      kill -0 $app 2>/dev/null || { echo "errand exited before it took the copy:" >&2; cat "$0/app.log" >&2; exit 1; }
      sleep 0.1
    done
    echo "no copy of the first start within two minutes:" >&2
    cat "$0/app.log" >&2
    exit 1
  ' "$home" "$out"
echo "first start copy: $out ($(wc -c <"$out") bytes)"
