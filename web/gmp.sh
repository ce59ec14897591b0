#!/usr/bin/env bash
# gmp.sh DIR — GMP built for WebAssembly with emscripten, from Debian's own
# source package, installed under DIR (DIR/include/gmp.h, DIR/lib/libgmp.a).
#
# The source comes from `apt-get source gmp` (a deb-src entry for the
# machine's Debian suites is added when there is none); nothing is
# downloaded from anywhere else.  Built once: a DIR that already holds the
# library is left as it is, so DIR may be a cache kept between builds
# (web/build.sh keeps it under ~/.cache/muster-web).  Takes about three
# minutes on two cores.
set -euo pipefail
dir=${1:?usage: gmp.sh DIR}
if [ -f "$dir/lib/libgmp.a" ] && [ -f "$dir/include/gmp.h" ]; then
    exit 0
fi
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}   # emscripten's acorn, from node-acorn
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# a deb-src entry beside each deb entry of the machine's Debian (or Ubuntu)
# sources, in either of apt's formats: deb822 (debian.sources) or one line each
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    lists=/etc/apt/sources.list.d
    if [ -f $lists/debian.sources ] || [ -f $lists/ubuntu.sources ]; then
        echo "gmp.sh: adding deb-src entries ($lists/muster-deb-src.sources)"
        found=()
        for f in $lists/debian.sources $lists/ubuntu.sources; do
            if [ -f "$f" ]; then found+=("$f"); fi
        done
        sed 's/^Types: deb$/Types: deb-src/' "${found[@]}" | "${sudo[@]}" tee $lists/muster-deb-src.sources >/dev/null
    elif grep -qs '^deb .*\(debian\|ubuntu\)' /etc/apt/sources.list; then
        echo "gmp.sh: adding deb-src entries ($lists/muster-deb-src.list)"
        grep '^deb .*\(debian\|ubuntu\)' /etc/apt/sources.list | sed 's/^deb /deb-src /' |
            "${sudo[@]}" tee $lists/muster-deb-src.list >/dev/null
    else
        echo "gmp.sh: found no Debian or Ubuntu entry in apt's sources to add a deb-src entry beside" >&2
        exit 1
    fi
    "${sudo[@]}" apt-get update -qq
fi
echo "gmp.sh: apt-get source gmp"
(cd "$work" && apt-get source -qq gmp >/dev/null 2>&1) || {
    "${sudo[@]}" apt-get update -qq
    (cd "$work" && apt-get source -qq gmp >/dev/null)
}
cd "$work"/gmp-*/
# Debian's source leaves the manual out (it is not free), and patches
# Makefile.am and configure.ac to match; make the generated files agree
sed -i 's| doc/Makefile||; /"doc\/Makefile")/d' configure
sed -i 's/^SUBDIRS = \(.*\) doc$/SUBDIRS = \1/' Makefile.in
echo "gmp.sh: configure (emconfigure)"
# GMP's portable C with 64-bit limbs (limb=longlong: a `long long` limb where
# `long` is 32 bits): WebAssembly has 64-bit integer arithmetic, and the
# default 32-bit limbs made big fractions (the odds of 500 dice) 4.8 times
# slower than the command, these about 2 times
limb=longlong emconfigure ./configure -q --host=none --disable-assembly --enable-static --disable-shared \
    --prefix="$dir" CFLAGS="-O2" >configure.out 2>&1 || { tail -30 configure.out >&2; exit 1; }
echo "gmp.sh: make (emmake)"
# the tables GMP generates with the build machine's compiler, then the library
emmake make -s -j"$(nproc)" >make.out 2>&1 || { tail -30 make.out >&2; exit 1; }
grep -q '^#define GMP_LIMB_BITS *64' gmp.h || { echo "gmp.sh: GMP was configured with limbs of other than 64 bits" >&2; exit 1; }
mkdir -p "$dir/lib" "$dir/include"
cp .libs/libgmp.a "$dir/lib/"
cp gmp.h "$dir/include/"
echo "gmp.sh: GMP for wasm (64-bit limbs) in $dir"
