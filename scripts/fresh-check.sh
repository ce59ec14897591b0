#!/usr/bin/env bash
# fresh-check.sh — prove the README's quick start on a bare Debian 12.
#
# Builds a `debootstrap --variant=minbase bookworm` chroot that holds nothing
# but git and ca-certificates, clones this repository's committed HEAD into
# it (with ../shared beside it when there is one, as CI has it), and runs the
# README's two commands there as a newcomer would:
#
#     ./scripts/demo.sh && ./scripts/test.sh
#
# Everything else the project needs must be installed by its own scripts.
# Root only (debootstrap, chroot and mounts); run it before a release:
#
#     sudo bash scripts/fresh-check.sh [DIR]
#
# DIR (default /var/tmp/muster-fresh) is made anew and removed afterwards;
# KEEP=1 leaves it for a look.  MIRROR overrides the Debian mirror.
# Not part of CI, which runs on a machine that already has things.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/var/tmp/muster-fresh}
mirror=${MIRROR:-http://deb.debian.org/debian}

if [ "$(id -u)" -ne 0 ]; then
    echo "fresh-check: run as root (debootstrap and chroot need it)" >&2
    exit 2
fi
bash "$top/scripts/need.sh" debootstrap git

mounted=()
cleanup() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount -l "${mounted[$i]}" 2>/dev/null || true
    done
    if [ -z "${KEEP:-}" ]; then
        rm -rf "$root"
    else
        echo "fresh-check: left the chroot in $root"
    fi
}
trap cleanup EXIT

rm -rf "$root"
mkdir -p "$root"
echo "== debootstrap --variant=minbase bookworm $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
    { tail -20 "$root.debootstrap.log" >&2; exit 1; }
rm -f "$root.debootstrap.log"
cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES
cp /etc/resolv.conf "$root/etc/resolv.conf"

mount_in() {   # mount_in TYPE SOURCE TARGET [OPTIONS]
    mkdir -p "$root$3"
    if [ "$1" = bind ]; then mount --bind "$2" "$root$3"; else mount -t "$1" ${4:+-o "$4"} "$2" "$root$3"; fi
    mounted+=("$root$3")
}
mount_in proc proc /proc
mount_in sysfs sys /sys
mount_in bind /dev /dev
mount_in devpts devpts /dev/pts
mount_in tmpfs tmpfs /dev/shm mode=1777

in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"
}

echo "== apt-get install git ca-certificates (nothing else)"
in_root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git ca-certificates >/dev/null'
# the certificate authorities this machine trusts beyond Debian's own (a network that passes TLS
# through a proxy of its own needs them, or npm cannot reach its registry from the chroot)
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    in_root 'update-ca-certificates >/dev/null 2>&1'
fi

echo "== clone $(git -C "$top" rev-parse --short HEAD) into /src/muster"
mkdir -p "$root/src"
git clone -q --no-local "$top" "$root/src/muster"
if [ -d "$top/../shared" ]; then
    cp -a "$top/../shared" "$root/src/shared"
fi

echo "== ./scripts/demo.sh"
in_root 'cd /src/muster && ./scripts/demo.sh' || { echo "fresh-check: demo.sh failed" >&2; exit 1; }

echo "== ./scripts/test.sh"
in_root 'cd /src/muster && ./scripts/test.sh' || { echo "fresh-check: test.sh failed" >&2; exit 1; }
echo "fresh-check: both README commands passed on a bare Debian 12"
