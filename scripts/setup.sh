#!/usr/bin/env bash
# setup.sh — install what muster needs to build (Debian/Ubuntu) and build it
# in place, so the driver is ./muster at the top of the source tree.
# Safe to run again: it installs only what is missing and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(gcc make re2c bison libgc-dev libgmp-dev libcunit1-dev autoconf automake libtool pkg-config)
# --sheets: also the headless browser that `make sheets` takes screenshots with
if [ "${1:-}" = "--sheets" ]; then
    packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    elif command -v sudo >/dev/null 2>&1; then
        sudo apt-get update -qq
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "setup: please install these packages as root: ${missing[*]}" >&2
        exit 1
    fi
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
    echo "setup: autoreconf"
    autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
fi
if [ ! -f Makefile ] || [ configure -nt config.status ]; then
    echo "setup: configure"
    ./configure -q
fi
echo "setup: make"
make -s -j"$(nproc)" >/dev/null
echo "setup: built ./muster ($(./muster --version))"
