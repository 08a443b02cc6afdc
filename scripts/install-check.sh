#!/usr/bin/env bash
# The .deb from `make dist`, as a person gets it: inspected (dpkg-deb
# --info/--contents: files, dependencies, desktop entry), installed with
# apt-get (its dependencies from Debian), started from its menu entry's
# command under Xvfb on the demo model with a fresh home, looked at (a
# screenshot, the log's first lines, the release's copy of a first start's
# screen shown), and removed — the data folder stays.
# Runs as root or with sudo; writes build/install-check/.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
out=build/install-check
rm -rf "$out" && mkdir -p "$out"
debs=(build/dist/errand_*_amd64.deb)
[ -f "${debs[0]}" ] || { echo "no .deb in build/dist: run make dist" >&2; exit 1; }
deb=${debs[0]}
fail() { echo "install check: $*" >&2; exit 1; }

echo "== $deb"
dpkg-deb --info "$deb" | tee "$out/info.txt"
depends=$(dpkg-deb --field "$deb" Depends)
for dep in libgtk-3-0 libwebkit2gtk-4.0-37; do
  grep -qw -- "$dep" <<<"$depends" || fail "Depends lacks $dep: $depends"
done
grep -q -- '-dev' <<<"$depends" && fail "Depends names a -dev package: $depends"
dpkg-deb --contents "$deb" | tee "$out/contents.txt"
for f in ./usr/bin/errand ./usr/share/applications/errand.desktop ./usr/share/icons/hicolor/256x256/apps/errand.png; do
  grep -q " $f\$" "$out/contents.txt" || fail "the package lacks $f"
done
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/applications/errand.desktop >"$out/errand.desktop"
desktop-file-validate "$out/errand.desktop" || fail "the desktop entry does not validate"

echo "== install"
$SUDO apt-get install -y -qq "./$deb" >"$out/apt-install.log" 2>&1 || { cat "$out/apt-install.log"; fail "apt-get install failed"; }
removed=false
trap '$removed || $SUDO apt-get remove -y -qq errand >/dev/null 2>&1 || true' EXIT
exec_cmd=$(sed -n 's/^Exec=//p' "$out/errand.desktop")
bin=$(command -v "$exec_cmd") || fail "the menu entry's command ($exec_cmd) is not on PATH"
[ "$bin" = /usr/bin/errand ] || fail "the menu entry's command is $bin, not /usr/bin/errand"

echo "== start $bin (demo model, fresh home)"
home=$(mktemp -d)
data="$home/.config/Errand"
env -u OPENAI_BASE_URL -u OPENAI_API_KEY -u ERRAND_MODEL -u ERRAND_DATA_DIR \
  HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" \
  NO_AT_BRIDGE=1 DBUS_SESSION_BUS_ADDRESS=disabled: \
  xvfb-run -a -s "-screen 0 1280x900x24" bash -euo pipefail -c '
    "$0" >"$1/stdout.log" 2>&1 & app=$!
    trap "kill $app 2>/dev/null || true" EXIT
    win=""
    for _ in $(seq 1 600); do
      win=$(xdotool search --name "^Errand$" 2>/dev/null | head -n1 || true)
      [ -n "$win" ] && break
      kill -0 $app 2>/dev/null || { echo "errand exited before its window came up" >&2; cat "$1/stdout.log" >&2; exit 1; }
      sleep 0.1
    done
    [ -n "$win" ] || { echo "no Errand window appeared within a minute" >&2; exit 1; }
    # The app has loaded once the message box is drawn at the bottom of
    # the main pane (blank while it says Loading…): wait for that, up to
    # two minutes on a loaded machine.
    composer() { convert "$1/window.png" -crop 900x130+330+720 -format %k info:; }
    for _ in $(seq 1 240); do
      import -window root "$1/window.png"
      [ "$(composer "$1")" -gt 10 ] && break
      sleep 0.5
    done
    [ "$(composer "$1")" -gt 10 ] || { echo "the window never showed the message box" >&2; exit 1; }
  ' "$bin" "$out"
echo "screenshot: $out/window.png"
log="$data/logs/errand.log"
[ -f "$log" ] || fail "no log at $log"
echo "== the log's first lines ($log)"
head -n 5 "$log"
grep -q "Errand starting" "$log" || fail "the log does not say Errand started"
# A release carries the copy of a first start's screen (make first-start):
# this first start's page showed it while its script loaded.
grep -q "first screen snapshot: shown" "$log" || fail "the first start did not show the release's copy of its screen"
[ -f "$data/errand.db" ] || fail "no database in $data"

echo "== remove"
$SUDO apt-get remove -y -qq errand >"$out/apt-remove.log" 2>&1 || { cat "$out/apt-remove.log"; fail "apt-get remove failed"; }
removed=true
[ ! -e /usr/bin/errand ] || fail "/usr/bin/errand is still there after the removal"
[ -f "$data/errand.db" ] || fail "the data folder lost its database on removal"
echo "removed; the data folder is still there: $(ls "$data" | tr '\n' ' ')"
rm -rf "$home"
echo "install check passed"
