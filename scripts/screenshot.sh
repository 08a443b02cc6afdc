#!/usr/bin/env bash
# Screenshots of the real production window under Xvfb, driven like a person
# would: click the input, type a task, press Enter. The demo model answers.
# Writes docs/screenshot-working.png (the agent streaming), docs/screenshot-question.png
# (the agent asking, with choices) and docs/screenshot.png (the task completed).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./build/bin/errand
[ -x "$bin" ] || { echo "build the app first: make build" >&2; exit 1; }
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
export NO_AT_BRIDGE=1 DBUS_SESSION_BUS_ADDRESS=disabled: ERRAND_DATA_DIR="$data"
unset OPENAI_BASE_URL OPENAI_API_KEY ERRAND_MODEL

xvfb-run -a -s "-screen 0 1200x820x24" bash -euo pipefail -c '
  "$0" & app=$!
  trap "kill $app 2>/dev/null || true" EXIT
  for _ in $(seq 1 100); do
    win=$(xdotool search --name "^Errand$" 2>/dev/null | head -n1 || true)
    [ -n "$win" ] && break
    sleep 0.1
  done
  [ -n "$win" ] || { echo "no Errand window appeared" >&2; exit 1; }
  sleep 2.5
  # The window fills the 1200x820 screen; the composer input is at the
  # bottom of the chat pane.
  xdotool mousemove 700 740 click 1
  sleep 0.3
  xdotool type --delay 15 "Plan a weekend trip to Lisbon for two, on a budget"
  xdotool key Return
  sleep 0.9
  import -window root docs/screenshot-working.png
  sleep 3
  import -window root docs/screenshot-question.png
  # Answer with the second choice button, above the input.
  xdotool mousemove 555 690 click 1
  sleep 4
  import -window root docs/screenshot.png
' "$bin"
echo "wrote docs/screenshot-working.png docs/screenshot-question.png docs/screenshot.png"
