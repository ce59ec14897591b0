#!/usr/bin/env bash
# setup.sh — install what muster needs to build (Debian/Ubuntu) and build it
# in place, so the driver is ./muster at the top of the source tree.
# Safe to run again: it installs only what is missing and rebuilds only what changed.
# setup.sh --sheets also installs Chromium and the DejaVu fonts the table sheet is set in, which
# `make sheets` needs (the page counts it checks depend on the font).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(gcc make re2c bison libgc-dev libgmp-dev libcunit1-dev libedit-dev autoconf automake libtool pkg-config)
# make check's test of the editor support (tests/editors.sh): Vim with its
# syntax highlighting (not vim-tiny), jq, and Oniguruma for the VS Code grammar
packages+=(vim jq libonig-dev)
# --sheets: also the headless browser that `make sheets` takes screenshots with
if [ "${1:-}" = "--sheets" ]; then
    packages+=(chromium fonts-dejavu-core)
fi
# the manual pages: tests/man.sh renders them with groff and man, and lints them with mandoc
packages+=(groff-base man-db mandoc)
# shell completion: tests/completion.sh runs the scripts with bash-completion loaded, and in bash
# and zsh on a pseudo-terminal (zsh's zpty)
packages+=(bash-completion zsh)

bash scripts/need.sh "${packages[@]}"

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
echo "setup: built ./muster ($(./muster --version | head -1))"
