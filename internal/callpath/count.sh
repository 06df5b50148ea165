#!/usr/bin/env bash
# count.sh: how many functions of ours, and in how many files, one first
# create runs, measured by coverage: the functions TestClientAndCreate
# covers that TestClientOnly (a client made, nothing sent) does not.
# Prints the count for internal/core, then per package, then, with -v,
# every function. Run from anywhere in the repository:
#
#   bash internal/callpath/count.sh [-v]
#
# CONTRIBUTING.md ("The map of a call") records the figures; the
# redesign's bound for internal/core is 30 functions in 8 files.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in TestClientOnly TestClientAndCreate; do
	go test -count=1 -coverpkg=./... -run "^${t}\$" -coverprofile="$tmp/$t.out" ./internal/callpath/ >/dev/null
	go tool cover -func="$tmp/$t.out" | grep -v '^total:' |
		awk '{ print $1 "|" $2 "\t" $3 }' | sort >"$tmp/$t.txt"
done
# file<TAB>function, of each function (keyed by file, line and name) that
# ran in the create and not in the base.
join -t $'\t' -j1 "$tmp/TestClientOnly.txt" "$tmp/TestClientAndCreate.txt" |
	awk -F'\t' '$2 == "0.0%" && $3 != "0.0%" { split($1, a, "|"); sub(/:[0-9]+:$/, "", a[1]); print a[1] "\t" a[2] }' |
	sort >"$tmp/ran.txt"
mod=$(go list -f '{{.Module.Path}}' .)
core=$(grep -c "^$mod/internal/core/" "$tmp/ran.txt" || true)
corefiles=$(grep "^$mod/internal/core/" "$tmp/ran.txt" | cut -f1 | sort -u | wc -l)
echo "internal/core: $core functions in $corefiles files"
echo "all packages: $(wc -l <"$tmp/ran.txt") functions in $(cut -f1 "$tmp/ran.txt" | sort -u | wc -l) files"
echo "per package (functions, files):"
while IFS= read -r pkg; do
	n=$(awk -F'\t' -v p="$pkg" '{ f=$1; sub(/\/[^\/]*$/, "", f); if (f == p) c++ } END { print c+0 }' "$tmp/ran.txt")
	nf=$(awk -F'\t' -v p="$pkg" '{ f=$1; sub(/\/[^\/]*$/, "", f); if (f == p) print $1 }' "$tmp/ran.txt" | sort -u | wc -l)
	echo "  ${pkg#"$mod"/} $n $nf"
done < <(cut -f1 "$tmp/ran.txt" | sed 's:/[^/]*$::' | sort -u)
if [ "${1:-}" = -v ]; then
	sed "s:^$mod/::" "$tmp/ran.txt"
fi
