#!/usr/bin/env bash
# editor-shots.sh — the two pictures of docs/editors.md: a part of
# rules/republic.muster (its rally table to the end of its rally modifiers:
# a table of '?', dice, bands, an odds table, a modifiers list) as Vim
# highlights it (:TOhtml, Vim's default light
# colours) and as the VS Code grammar scopes it (tests/editors/tmtok --html,
# the Dark+ theme's colours), each page shot by headless Chromium.
#
#   bash scripts/editor-shots.sh [BUILDDIR]
#
# BUILDDIR is where `make check` built tests/editors/tmtok (default: the
# source tree).  Writes docs/editors-vim.png and docs/editors-vscode.png.
# Needs vim (scripts/setup.sh) and Chromium with the DejaVu fonts
# (scripts/setup.sh --sheets).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
build=$(cd "${1:-.}" && pwd)
tmtok=$build/tests/editors/tmtok
chromium=${CHROMIUM:-chromium}
file=rules/republic.muster
size=1400,1330

[ -x "$tmtok" ] || { echo "editor-shots: no $tmtok; build it with make check" >&2; exit 1; }
first=$(grep -n '^table rally_table(' "$file" | head -n 1 | cut -d: -f1)
last=$(awk -v from="$(grep -n '^modifiers rally_mods(' "$file" | head -n 1 | cut -d: -f1)" \
       'from && NR > from && /^}/ { print NR; exit }' "$file")
[ -n "$first" ] && [ -n "$last" ] || { echo "editor-shots: the part of $file to show is not found" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/tohtml.vim" <<EOF
set encoding=utf-8 noswapfile termguicolors background=light
set rtp^=$top/editors/vim
runtime plugin/tohtml.vim
filetype plugin indent on
syntax on
colorscheme default
let g:html_number_lines = 1
let g:html_no_progress = 1
let g:html_font = ['DejaVu Sans Mono']
edit $top/$file
$first,${last}TOhtml
write! $tmp/vim.html
qall!
EOF
vim -N -u NONE -i NONE -es -S "$tmp/tohtml.vim" </dev/null >/dev/null 2>&1 || true
[ -s "$tmp/vim.html" ] || { echo "editor-shots: Vim wrote no HTML" >&2; exit 1; }
# the same type size as the VS Code page
sed -i 's|</style>|pre, body { font-size: 13px; line-height: 1.45; margin: 0; padding: 6px 8px; }\n</style>|' "$tmp/vim.html"

"$tmtok" editors/vscode/syntaxes/muster.tmLanguage.json "$file" --html "$file" "$first" "$last" >"$tmp/vscode.html"

shoot() {
    local profile
    profile=$(mktemp -d)
    "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
        --user-data-dir="$profile" --window-size="$size" --screenshot="$2" "file://$1" >/dev/null 2>&1 || true
    rm -rf "$profile"
    [ -s "$2" ] || { echo "editor-shots: $chromium took no screenshot of $1" >&2; exit 1; }
    echo "$2: lines $first-$last of $file ($(wc -c <"$2") bytes)"
}
shoot "$tmp/vim.html" "$top/docs/editors-vim.png"
shoot "$tmp/vscode.html" "$top/docs/editors-vscode.png"
