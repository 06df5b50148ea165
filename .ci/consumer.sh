#!/usr/bin/env bash
# The modules as a user's program sees them, from outside the repository
# (no go.work): scratch modules in a temporary directory that require the
# repository's modules at the version they require each other at (the next
# release), each module path replaced by its directory in this checkout, as
# a user does before the release is published.
#
#   1. .ci/consumer/main.go, which requires the journal and otel modules,
#      is tidied, built and run: it creates an order exactly once against
#      the test kit's simulator.
#   2. every package of every module builds as a dependency of a scratch
#      module (the commands as go install MODULE@VERSION would build them);
#   3. every example's main.go (examples/*/main.go, whatever module it is
#      in), copied into a scratch module of its own, builds: an example
#      uses public packages only, so a user can start from a copy.
#
# Usage: .ci/consumer.sh [-published]
#   -published   no replace directives: the versions as the Go module proxy
#                serves them, to check a release once its tags are pushed
#                (docs/RELEASING.md)
# It needs the Go module proxy for third-party modules, or a module cache
# that has them.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH="$PATH:/usr/local/go/bin"
export GOWORK=off
# shellcheck source=.ci/modules.sh
. .ci/modules.sh

published=0
case "${1:-}" in
  -published) published=1 ;;
  "") ;;
  *) echo "usage: .ci/consumer.sh [-published]"; exit 2 ;;
esac

mapfile -t dirs < <(modules_list)
# The version the modules of the repository require each other at.
version=$(for d in "${dirs[@]}"; do modules_internal_requires "$d"; done | awk '{print $2}' | LC_ALL=C sort -u)
case "$version" in
  v*.*.*) ;;
  *) echo "consumer.sh: the modules do not require each other at one version (${version:-none})"; exit 1 ;;
esac
goversion=""
for d in "${dirs[@]}"; do
  goversion=$(version_max "${goversion:-0}" "$(modules_go "$d")")
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# scratch_module DIR NAME MODULE_DIR...: a go.mod in DIR for module NAME
# that requires the modules in MODULE_DIR at $version, with every module of
# the repository replaced by its directory.
scratch_module() {
  local dir=$1 name=$2 d
  shift 2
  mkdir -p "$dir"
  {
    echo "module $name"
    echo
    echo "go $goversion"
    echo
    for d in "$@"; do
      echo "require $(modules_path "$d") $version"
    done
    if [ "$published" = 0 ]; then
      echo
      for d in "${dirs[@]}"; do
        echo "replace $(modules_path "$d") => $ROOT/$d"
      done
    fi
  } >"$dir/go.mod"
}

echo "-- a program requiring the journal and otel modules at $version (go $goversion)"
scratch_module "$work/consumer" example.com/consumer journal otel
cp .ci/consumer/main.go "$work/consumer/main.go"
(
  cd "$work/consumer"
  go mod tidy
  echo "its requirements of the repository's modules after go mod tidy:"
  grep -E "^[[:space:]]*(require )?github.com/rxdelivery/" go.mod | sed -E 's/^[[:space:]]*(require )?/  /'
  go build -o consumer .
  ./consumer
)

echo "-- every package of every module, built as a dependency of a scratch module"
# The command among them (cmd/rxdelivery) builds as
# go install MODULE@VERSION builds it for a user, which refuses a module
# whose go.mod has a replace directive.
scratch_module "$work/all" example.com/all "${dirs[@]}"
printf 'package all\n' >"$work/all/all.go"
for d in "${dirs[@]}"; do
  path=$(modules_path "$d")
  if ! (cd "$work/all" && GOFLAGS="${GOFLAGS:-} -mod=mod" go build "$path/..."); then
    echo "FAILED: the packages of module $d ($path) do not build as a dependency"
    exit 1
  fi
  echo "$path/...: builds"
done

echo "-- every example's main.go copied into a module of its own"
found=0
for main in examples/*/main.go; do
  name=$(basename "$(dirname "$main")")
  found=$((found + 1))
  scratch_module "$work/examples/$name" "example.com/$name" "${dirs[@]}"
  cp "$main" "$work/examples/$name/main.go"
  if ! (cd "$work/examples/$name" && go mod tidy >/dev/null 2>&1 && go build -o /dev/null .); then
    echo "FAILED: $main does not build copied into a module of its own:"
    (cd "$work/examples/$name" && go mod tidy && go build -o /dev/null .) 2>&1 | sed 's/^/  /' || true
    exit 1
  fi
  echo "$main: builds"
done
[ "$found" -gt 0 ] || { echo "consumer.sh: no examples/*/main.go"; exit 1; }
echo "consumer checks passed"
