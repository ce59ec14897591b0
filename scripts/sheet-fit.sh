#!/bin/bash
# sheet-fit.sh SHEET.html WIDTH_MM — checks that every table of a table
# sheet fits a column WIDTH_MM wide: lays the sheet out in one column of
# that width in headless Chromium ($CHROMIUM, default chromium), with a
# small script that lists each table wider than its column.  Prints them
# and exits 1 if there are any; exits 0 when every table fits.
set -u
html=$1 width=$2
chromium=${CHROMIUM:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  sed -e "s#</style>#@media screen { body { max-width: none !important; width: ${width}mm; margin: 0 !important; padding: 0 !important; } main.qrs { column-count: 1 !important; } }\n</style>#" \
      -e '/^<\/body>$/d' -e '/^<\/html>$/d' "$html"
  cat <<'JS'
<script>
var wide = [];
document.querySelectorAll("main.qrs table").forEach(function (t) {
  var column = t.parentNode.getBoundingClientRect().width, table = t.getBoundingClientRect().width;
  if (table > column + 1) {
    var h = t.parentNode.querySelector("h3");
    wide.push((h ? h.textContent : "a table") + ": " + Math.round(table) + "px in a " + Math.round(column) + "px column");
  }
});
var p = document.createElement("pre");
p.id = "fit";
p.textContent = wide.length ? wide.join("\n") : "every table fits";
document.body.appendChild(p);
</script>
</body>
</html>
JS
} > "$work/fit.html"
"$chromium" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" \
  --dump-dom "file://$work/fit.html" 2>/dev/null > "$work/dom.html" || { echo "$chromium failed on $html" >&2; exit 2; }
result=$(sed -n '/<pre id="fit">/,/<\/pre>/p' "$work/dom.html" | sed 's/<[^>]*>//g; s/&gt;/>/g; s/&lt;/</g; s/&amp;/\&/g')
test -n "$result" || { echo "$html: no result from $chromium" >&2; exit 2; }
if [ "$result" != "every table fits" ]; then
  echo "$html: tables wider than a ${width}mm column:" >&2
  echo "$result" | sed 's/^/  /' >&2
  exit 1
fi
