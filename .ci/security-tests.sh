#!/usr/bin/env bash
# Every test SECURITY.md names as the check of a promise exists where it
# says: each list item "- `path_test.go`: `TestX`, `FuzzY` ..." (with its
# continuation lines) names tests declared in that file. A renamed or
# deleted test fails CI until SECURITY.md follows.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=$(awk '
/^ *- `[^`]*_test\.go`:/ {
  match($0, /`[^`]*_test\.go`/); file = substr($0, RSTART + 1, RLENGTH - 2)
  line = substr($0, RSTART + RLENGTH); indent = match($0, /-/)
  emit(line); next
}
file != "" && /^ *$/ { file = ""; next }
file != "" {
  match($0, /^ */)
  if (RLENGTH < indent || $0 ~ /^ *(- |[0-9]+\. )/) { file = ""; next }
  emit($0)
}
function emit(s,   t) {
  while (match(s, /`(Test|Fuzz)[A-Za-z0-9_]*`/)) {
    t = substr(s, RSTART + 1, RLENGTH - 2); print file, t
    s = substr(s, RSTART + RLENGTH)
  }
}' SECURITY.md)
[ -n "$pairs" ] || { echo "SECURITY.md names no test"; exit 1; }
missing=0 n=0
while read -r file name; do
  n=$((n + 1))
  if ! grep -qE "^func ${name}\(" "$file" 2>/dev/null; then
    echo "SECURITY.md names $name in $file, which does not declare it"
    missing=1
  fi
done <<<"$pairs"
[ "$missing" = 0 ] || exit 1
echo "SECURITY.md: the $n tests it names exist"
