#!/usr/bin/env bash
# Checks that only the real production window (WebKitGTK) can answer, run
# under Xvfb and driven with xdotool like a person would; each reads a
# screenshot against what it must show and fails with the reason.
#   focus ring   ↓ in the conversation list draws the ring on the row it moves to
#   auto-scroll  a long reply nobody scrolled ends with its completion card in
#                view, at the smallest window (800×560)
# The second points the window at the scripted model server (mockmodel).
set -euo pipefail
cd "$(dirname "$0")/.."
for b in errand mockmodel; do
  [ -x "build/bin/$b" ] || { echo "build first: make build build-dev" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NO_AT_BRIDGE=1 DBUS_SESSION_BUS_ADDRESS=disabled:

# pixels in a crop (WxH+X+Y) whose colour passes an awk test on r, g, b
count() {
  convert "$1" -crop "$2" -depth 8 txt:- |
    awk -F'[(),]' -v test="$3" 'NR>1 { r=$3+0; g=$4+0; b=$5+0;
      if ((test == "accent" && b > g + 60 && b > r + 60) ||
          (test == "success" && g > r + 30 && g > b + 10)) n++ } END { print n+0 }'
}

# Starts the window in $1 (a fresh data folder), at 800×560 when $2 is set.
window() {
  xvfb-run -a -s "-screen 0 1200x820x24" bash -euo pipefail -c '
    ./build/bin/errand & app=$!
    trap "kill $app 2>/dev/null || true" EXIT
    for _ in $(seq 1 100); do
      win=$(xdotool search --name "^Errand$" 2>/dev/null | head -n1 || true)
      [ -n "$win" ] && break
      sleep 0.1
    done
    [ -n "$win" ] || { echo "no Errand window appeared" >&2; exit 1; }
    sleep 1
    if [ -n "$1" ]; then
      for w in $(xdotool search --name "^Errand$"); do xdotool windowmove $w 0 0 windowsize $w 800 560 || true; done
    fi
    sleep 1.5
    . "$0"
  ' "$work/steps.sh" "${1:-}"
}

# 1. The focus ring in the conversation list.
cat > "$work/steps.sh" <<STEPS
sleep 1.5; xdotool mousemove 700 738 click 1; sleep 0.3
xdotool type --delay 10 "remember the first"; xdotool key Return; sleep 2.5
xdotool key ctrl+n; sleep 0.8
xdotool type --delay 10 "remember the second"; xdotool key Return; sleep 2.5
xdotool mousemove 100 230 click 1; sleep 0.5
xdotool mousemove 700 400; sleep 0.3
import -window root "$work/focus-before.png"
xdotool key Down; sleep 0.6
import -window root "$work/focus-after.png"
STEPS
ERRAND_DATA_DIR="$work/focus" OPENAI_BASE_URL= OPENAI_API_KEY= ERRAND_MODEL= window
before=$(count "$work/focus-before.png" 272x44+0+246 accent)
after=$(count "$work/focus-after.png" 272x44+0+246 accent)
# The row holds its agent's dot (a few dozen pixels of a like colour); the ring
# adds hundreds.
if [ $((after - before)) -lt 500 ]; then
  cp "$work"/focus-*.png /tmp/ 2>/dev/null || true
  echo "FAIL focus ring: the second row has $after ring pixels after ↓ ($before before); screenshots in /tmp/focus-*.png" >&2
  exit 1
fi
echo "ok   focus ring: ↓ draws the ring on the row it moves to ($after ring pixels, $before before)"

# 2. Auto-scroll at 800×560: 400 words stream in, then the completion card.
./build/bin/mockmodel > "$work/mock.out" 2>&1 & mock=$!
trap 'kill $mock 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q listening "$work/mock.out" && break; sleep 0.1; done
url=$(awk '/listening/{print $2}' "$work/mock.out")
cat > "$work/steps.sh" <<STEPS
xdotool mousemove 500 480 click 1; sleep 0.3
xdotool type --delay 10 "[slow] tell a long story"; xdotool key Return
# 400 words at 50 ms each, then the card: wait for the green of its badge.
for _ in \$(seq 1 60); do
  sleep 1
  import -window root "$work/poll.png"; convert "$work/poll.png" -crop 560x360+232+92 -sample 25% "$work/poll.png"
  n=\$(convert "$work/poll.png" -depth 8 txt:- | awk -F'[(),]' 'NR>1 { if (\$4+0 > \$3+30 && \$4+0 > \$5+10) n++ } END { print n+0 }')
  [ "\$n" -gt 20 ] && break
done
sleep 1
import -window root "$work/scroll.png"
STEPS
ERRAND_DATA_DIR="$work/scroll" OPENAI_BASE_URL="$url/v1" OPENAI_API_KEY=x ERRAND_MODEL=mock-model window small
green=$(count "$work/scroll.png" 560x360+232+92 success)
if [ "$green" -lt 300 ]; then
  cp "$work/scroll.png" /tmp/scroll.png
  echo "FAIL auto-scroll: the completion card is not in view after the reply ($green green pixels); screenshot /tmp/scroll.png" >&2
  exit 1
fi
echo "ok   auto-scroll: the completion card is in view after a 400-word reply at 800×560 ($green green pixels)"
