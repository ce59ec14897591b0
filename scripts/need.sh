#!/usr/bin/env bash
# need.sh PACKAGE... — make sure these Debian packages are installed.
# Installs the missing ones with apt-get (as root, or through sudo); where it
# cannot, names them and exits 1.  Prints nothing when all are there.
set -euo pipefail
missing=()
for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "need: not a Debian system; please install: ${missing[*]}" >&2
    exit 1
fi
echo "need: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "need: please install these packages as root: ${missing[*]}" >&2
    exit 1
fi
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
