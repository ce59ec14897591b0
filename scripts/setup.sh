#!/usr/bin/env bash
# setup.sh — install what muster needs to build (Debian/Ubuntu) and build it
# in place, so the driver is ./muster at the top of the source tree.
# Safe to run again: it installs only what is missing and rebuilds only what changed.
# setup.sh --sheets also installs Chromium and the DejaVu fonts the table sheet is set in, which
# `make sheets` needs (the page counts it checks depend on the font).
# setup.sh --web also installs what `make web` and its tests need (docs/web.md): emscripten, npm,
# Chromium, and the page's npm packages (web/node_modules, from web/package-lock.json).
set -euo pipefail
cd "$(dirname "$0")/.."
sheets=0 web=0
for a in "$@"; do
    case $a in
        --sheets) sheets=1 ;;
        --web) web=1 ;;
        *) echo "setup.sh: unknown option '$a' (--sheets, --web)" >&2; exit 2 ;;
    esac
done

packages=(gcc make re2c bison libgc-dev libgmp-dev libcunit1-dev libedit-dev autoconf automake libtool pkg-config)
# make check's test of the editor support (tests/editors.sh): Vim with its
# syntax highlighting (not vim-tiny), jq, and Oniguruma for the VS Code grammar
packages+=(vim jq libonig-dev)
# --sheets: also the headless browser that `make sheets` takes screenshots with
if [ $sheets = 1 ] || [ $web = 1 ]; then
    packages+=(chromium fonts-dejavu-core)
fi
# --web: emscripten (Debian's: it brings clang, lld and binaryen), and dpkg-dev for `apt-get
# source gmp` (web/gmp.sh); npm only where no npm came with the machine's Node.js
if [ $web = 1 ]; then
    packages+=(emscripten dpkg-dev xz-utils)
    command -v npm >/dev/null 2>&1 || packages+=(npm)
fi
# the manual pages: tests/man.sh renders them with groff and man, and lints them with mandoc
packages+=(groff-base man-db mandoc)
# shell completion: tests/completion.sh runs the scripts with bash-completion loaded, and in bash
# and zsh on a pseudo-terminal (zsh's zpty)
packages+=(bash-completion zsh)

bash scripts/need.sh "${packages[@]}"

# the page's npm packages, as the lock file gives them (again when it changed)
if [ $web = 1 ] && { [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules ]; }; then
    echo "setup: npm ci (web/)"
    (cd web && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || { echo "setup: npm ci in web/ failed" >&2; exit 1; }
    touch web/node_modules
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
echo "setup: built ./muster ($(./muster --version | head -1))"
