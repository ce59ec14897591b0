#!/usr/bin/env bash
# installcheck.sh — what `make install` put in place works from where it is
# (run by `make installcheck`, with the folders of the installation):
#   - the installed muster reads the installed standard library (its
#     --version says which folder; an import of it runs);
#   - the installed header, libraries and muster.pc build the example of
#     docs/embedding.md, shared and static (tests/embedding.sh);
#   - the manual pages render.
#
#   installcheck.sh DESTDIR PREFIX BINDIR PKGDATADIR LIBDIR MANDIR
source "$(dirname "$0")/lib.sh"

destdir=$1 prefix=$2 bindir=$3 pkgdatadir=$4 libdir=$5 mandir=$6
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

bash "$top_srcdir/tests/embedding.sh" installed "$destdir" "$prefix" "$destdir$libdir/pkgconfig" || failed=1
[ -z "${failed:-}" ] && pass "the installed library builds the embedding example" ||
    fail "the installed library builds the embedding example" "see above"
finish
