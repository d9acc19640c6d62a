#!/usr/bin/env bash
# Runs a command on another major version of Node.js in a copy of this tree:
#   scripts/with-node.sh 22 npx jest '\.unit\.spec\.ts$'
# That Node comes from the npm registry's `node` package (its binary and headers ship inside the package), into
# $NODE_VERSIONS_HOME/<major> (default ~/.cache/payments-node/<major>). The copy (/tmp/payments-node<major>-tree)
# shares node_modules with this tree by hard links, except the SQLite driver: on Node 22 and later the copy gets
# better-sqlite3 13 (as npm would install it there), on Node 20 better-sqlite3 12 built from source for that Node's
# ABI. Build this tree first (`npm run build`): the copy runs what `dist/` holds.
set -euo pipefail
major=${1:?usage: scripts/with-node.sh <major version> <command...>}
shift
cd "$(dirname "$0")/.."
root=$(pwd)
home=${NODE_VERSIONS_HOME:-$HOME/.cache/payments-node}/$major
tree=/tmp/payments-node$major-tree

if [ ! -x "$home/node_modules/node/bin/node" ]; then
  mkdir -p "$home"
  npm install --prefix "$home" --no-audit --no-fund --no-save "node@$major" >/dev/null
fi
# The platform package beside the binary holds Node's headers, which the native build needs.
nodedir=$(find "$home/node_modules" -path '*/include/node/node.h' -print -quit | sed 's#/include/node/node.h$##')
gyp=$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js
export PATH="$home/node_modules/node/bin:$PATH"
echo "Node $(node --version), headers in $nodedir" >&2

# The copy, made again on every run so that it runs this tree's files as they are now: node_modules and .git as hard
# links (installed packages and git objects are not edited in place), everything else copied, so that editing or
# building here meanwhile does not change what the copy runs. The service's data directory is left out.
rm -rf "$tree"
mkdir -p "$tree"
for entry in "$root"/* "$root"/.[!.]*; do
  name=$(basename "$entry")
  case "$name" in
    node_modules | .git) cp -al "$entry" "$tree/$name" ;;
    data) ;;
    *) cp -r "$entry" "$tree/$name" ;;
  esac
done
if [ "$major" -ge 22 ]; then
  # Node 22 and later use better-sqlite3 13 (Node-API), which npm installs there as the optional dependency
  # `better-sqlite3-napi` and skips on Node 20: installed once for that Node, then placed in the copy.
  version=$(node -p "require('$root/package-lock.json').packages['node_modules/better-sqlite3-napi'].version")
  cache="$home/better-sqlite3-napi-$version"
  if [ ! -f "$cache/node_modules/better-sqlite3/package.json" ]; then
    rm -rf "$cache"
    npm install --prefix "$cache" --no-audit --no-fund --no-save "better-sqlite3@$version" >/dev/null
  fi
  rm -rf "$tree/node_modules/better-sqlite3-napi"
  cp -r "$cache/node_modules/better-sqlite3" "$tree/node_modules/better-sqlite3-napi"
else
  # Node 20 uses better-sqlite3 12, built here from source for that Node's ABI.
  stamp="$(node --version) $(node -p "require('$root/node_modules/better-sqlite3/package.json').version")"
  cache="$home/better-sqlite3"
  if [ "$(cat "$cache/.built-for" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$cache"
    cp -r "$root/node_modules/better-sqlite3" "$cache"
    rm -rf "$cache/build"
    (cd "$cache" && node "$gyp" rebuild --release --nodedir="$nodedir" -j "$(nproc)" >/dev/null)
    echo "$stamp" > "$cache/.built-for"
  fi
  rm -rf "$tree/node_modules/better-sqlite3"
  cp -r "$cache" "$tree/node_modules/better-sqlite3"
fi
cd "$tree"
"$@"
