#!/usr/bin/env bash
# Checks that only the real production window (WebKitGTK) can answer, run
# under Xvfb and driven with xdotool like a person would (e2e/windowcheck):
#   focus ring   Tab reaches the conversation list's row; ↓ draws the ring
#                on the row below
#   auto-scroll  a long reply nobody scrolled ends with its completion card
#                in view, at the smallest window (800×560); then the window
#                gives back its memory (app/webmemory), the card still in view
# Each finds the window by its process and the controls by the keyboard,
# waits for states (frames, the app's database), never for a fixed time,
# and keeps the screenshot it failed on in build/window-checks/.
set -euo pipefail
cd "$(dirname "$0")/.."
for b in errand mockmodel e2e-seed; do
  [ -x "build/bin/$b" ] || { echo "build first: make build build-dev" >&2; exit 1; }
done
go build -o build/bin/windowcheck ./e2e/windowcheck
export NO_AT_BRIDGE=1 DBUS_SESSION_BUS_ADDRESS=disabled:
rm -rf build/window-checks
xvfb-run -a -s "-screen 0 1200x820x24" ./build/bin/windowcheck -out build/window-checks "$@"
