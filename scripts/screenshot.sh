#!/usr/bin/env bash
# Screenshots of the real production window under Xvfb, driven like a person
# would: click the input, type a task, press Enter, use the keyboard. The
# offline demo model answers. Writes into docs/:
#   screenshot-working.png   a running task: the reply streaming, the indicator below it
#   screenshot-question.png  the agent asks: the question, choice buttons by the input
#   screenshot.png           the task completed after a choice was clicked
#   screenshot-list.png      the conversation list with badges: one conversation waits
#                            for an answer (Needs input, unread) while another one runs
#   screenshot-search.png    the search across conversations (Ctrl+K) with its results
#   screenshot-approval-small.png  the smallest window (800×560) with an approval card
#                            (against the scripted model server, build/bin/mockmodel)
#   screenshot-settings.png  the settings, in the same small window
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./build/bin/errand
[ -x "$bin" ] || { echo "build the app first: make build" >&2; exit 1; }
[ -x ./build/bin/mockmodel ] || { echo "build the scripted model server first: make build-dev" >&2; exit 1; }
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
  # The page loads after the window maps; on a loaded machine that takes a while.
  sleep 4
  shot() { import -window root "docs/$1"; }

  # 1. A task: its reply streams, the indicator below the last message.
  # The window fills the 1200x820 screen; the composer is at the bottom.
  xdotool mousemove 700 738 click 1
  sleep 0.3
  xdotool type --delay 15 "Plan a weekend trip to Lisbon for two, on a budget"
  xdotool key Return
  sleep 0.9
  shot screenshot-working.png

  # 2. The agent asks. The composer has the focus again; the choice
  # buttons come just before it, so Shift+Tab reaches the last one.
  sleep 3
  shot screenshot-question.png
  xdotool key shift+Tab
  sleep 0.2
  xdotool key Return
  # The demo task completes, then checks its result against its plan.
  sleep 8
  shot screenshot.png

  # 3. Two more conversations (Ctrl+N): the first asks while the second
  # is open and running, so the list shows its badges.
  xdotool key ctrl+n
  sleep 0.8
  xdotool type --delay 15 "/task Find a quiet cafe near Alfama with good Wi-Fi"
  xdotool key Return
  sleep 0.2
  xdotool key ctrl+n
  sleep 0.6
  xdotool type --delay 15 "/task Draft a packing list for a rainy weekend"
  # Let the window catch up with the typing (it lags on a loaded machine).
  sleep 0.8
  xdotool key Return
  sleep 2
  shot screenshot-list.png

  # 4. Search (Ctrl+K) finds words in every conversation as they are typed
  # (once the tasks have come to their questions).
  sleep 4
  xdotool key ctrl+k
  sleep 1.5
  xdotool type --delay 60 "plan"
  sleep 2
  shot screenshot-search.png
  xdotool key Escape
' "$bin"

# 4. The smallest window against the scripted model server: a write waits
# for approval; then the settings.
rm -rf "$data" && mkdir -p "$data"
./build/bin/mockmodel > "$data/mock.out" 2>&1 & mock=$!
trap 'kill $mock 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 50); do grep -q listening "$data/mock.out" && break; sleep 0.1; done
url=$(awk '/listening/{print $2}' "$data/mock.out")
OPENAI_BASE_URL="$url/v1" OPENAI_API_KEY=x ERRAND_MODEL=mock-model \
xvfb-run -a -s "-screen 0 1200x820x24" bash -euo pipefail -c '
  "$0" & app=$!
  trap "kill $app 2>/dev/null || true" EXIT
  for _ in $(seq 1 100); do
    win=$(xdotool search --name "^Errand$" 2>/dev/null | head -n1 || true)
    [ -n "$win" ] && break
    sleep 0.1
  done
  [ -n "$win" ] || { echo "no Errand window appeared" >&2; exit 1; }
  sleep 1
  for w in $(xdotool search --name "^Errand$"); do xdotool windowmove $w 0 0 windowsize $w 800 560 || true; done
  sleep 2
  shot() { import -window root -crop 800x560+0+0 +repage "docs/$1"; }
  xdotool mousemove 500 480 click 1
  sleep 0.3
  xdotool type --delay 15 "[write] a greeting into hello.txt"
  xdotool key Return
  sleep 2.5
  shot screenshot-approval-small.png
  # Settings: the button at the bottom of the sidebar.
  xdotool mousemove 115 530 click 1
  sleep 1.2
  shot screenshot-settings.png
' "$bin"
echo "wrote docs/screenshot-working.png docs/screenshot-question.png docs/screenshot.png docs/screenshot-list.png docs/screenshot-search.png" \
  "docs/screenshot-approval-small.png docs/screenshot-settings.png"
