#!/usr/bin/env bash
# installcheck.sh — what `make install` put in place works from where it is
# (run by `make installcheck`, with the folders of the installation):
#   - the installed muster reads the installed standard library (its
#     --version says which folder; an import of it runs);
#   - the installed header, libraries and muster.pc build the example of
#     docs/embedding.md, shared and static (tests/embedding.sh);
#   - the manual pages render;
#   - the installed bash completion asks the installed muster, and the
#     installed Vim files make a .muster file's filetype muster, highlighted.
#
#   installcheck.sh DESTDIR PREFIX BINDIR PKGDATADIR LIBDIR MANDIR BASHCOMPLETIONDIR VIMDIR
# (BASHCOMPLETIONDIR empty: configured --without-bash-completion-dir)
source "$(dirname "$0")/lib.sh"

destdir=$1 prefix=$2 bindir=$3 pkgdatadir=$4 libdir=$5 mandir=$6 bashcompletiondir=$7 vimdir=$8
muster=$destdir$bindir/muster

if [ ! -x "$muster" ]; then
    fail "installed muster" "no program at $muster"
    finish
fi
pass "installed muster at $muster"

want=$(cd "$destdir$pkgdatadir" 2>/dev/null && pwd -P)
said=$("$muster" --version | sed -n 's/^Standard library: //p')
got=$(cd "$said" 2>/dev/null && pwd -P)
if [ -n "$want" ] && [ "$got" = "$want" ]; then
    pass "the installed muster reads the installed standard library ($said)"
else
    fail "the installed muster reads the installed standard library" "it says '$said'; installed in '$destdir$pkgdatadir'"
fi

cat >"$TEST_TMP/fire.muster" <<'MUSTER'
import "dice"
proc volley(n: int) -> int { return successes(n, target: 5) }
MUSTER
out=$(cd "$TEST_TMP" && "$muster" run fire.muster volley n=3 --dice 5,1,6 2>&1)
if [ "$out" = "2" ]; then
    pass "the installed muster runs an import of the standard library"
else
    fail "the installed muster runs an import of the standard library" "$out"
fi

for page in man1/muster.1 man7/muster-lang.7; do
    f=$destdir$mandir/$page
    if [ ! -f "$f" ]; then
        fail "installed $page" "not at $f"
    elif err=$(groff -ww -mdoc -Tutf8 -z "$f" 2>&1) && [ -z "$err" ]; then
        pass "installed $page renders without warnings"
    else
        fail "installed $page renders without warnings" "$err"
    fi
done

# the completion, as bash-completion would call it, with the installed muster first on PATH
if [ -n "$bashcompletiondir" ]; then
    script=$destdir$bashcompletiondir/muster
    out=$(cd "$TEST_TMP" && PATH="$destdir$bindir:$PATH" bash -c '
        source "$1" || exit 1
        COMP_WORDS=(muster run fire.muster v); COMP_CWORD=3
        COMP_LINE="muster run fire.muster v"; COMP_POINT=${#COMP_LINE}
        _muster muster v fire.muster
        printf "%s\n" "${COMPREPLY[@]}"' _ "$script" 2>&1)
    if [ "$out" = "volley" ]; then
        pass "the installed bash completion offers the procedures of the script on the line"
    else
        fail "the installed bash completion offers the procedures of the script on the line" \
            "from $script:" "$out"
    fi
fi

# the Vim files: Vim with only the installed folder added to its runtime path
if command -v vim >/dev/null; then
    cat >"$TEST_TMP/vim.vim" <<VIM
set runtimepath^=$destdir$vimdir
filetype plugin indent on
syntax on
edit $TEST_TMP/fire.muster
call writefile([&filetype, synIDattr(synID(2, 1, 1), 'name')], '$TEST_TMP/vim.out')
qall!
VIM
    rm -f "$TEST_TMP/vim.out"
    timeout -k 5 60 vim -N -u NONE -i NONE -es -S "$TEST_TMP/vim.vim" </dev/null >/dev/null 2>&1
    out=$(cat "$TEST_TMP/vim.out" 2>/dev/null | paste -sd' ')
    if [ "$out" = "muster musterDeclaration" ]; then
        pass "the installed Vim files: a .muster file is muster, 'proc' a keyword"
    else
        fail "the installed Vim files: a .muster file is muster, 'proc' a keyword" \
            "filetype and group of 'proc': '$out' (runtime path $destdir$vimdir)"
    fi
fi

bash "$top_srcdir/tests/embedding.sh" installed "$destdir" "$prefix" "$destdir$libdir/pkgconfig" || failed=1
[ -z "${failed:-}" ] && pass "the installed library builds the embedding example" ||
    fail "the installed library builds the embedding example" "see above"
finish
