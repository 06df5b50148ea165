#!/usr/bin/env bash
# Public-API compatibility check against the last release (.ci/release-point).
#
# For every module of the repository that existed at the release, apidiff
# (on PATH; .ci/run installs the pinned version) compares the release's API
# with the tree's, narrowed by .ci/apicompat to what a user's code compiles
# against. Then the version CHANGELOG.md declares for the next release (the
# top section's heading, or the "Next release:" line of [Unreleased]) must
# allow what changed, as Go modules apply semantic versioning:
#   - an incompatible change needs a new major version; below v1, a new
#     minor version (0.1.x to 0.2.0);
#   - an addition needs at least a new minor version, once one is declared;
#   - a version declared must be above the release's.
# A module added since the release has nothing to compare with.
#
# Usage: .ci/apicompat.sh [MODULE_DIR...]   (default: every module)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

release_version=$(awk '$1 == "version" {print $2}' .ci/release-point)
release_commit=$(awk '$1 == "commit" {print $2}' .ci/release-point)
[ -n "$release_version" ] && [ -n "$release_commit" ] || { echo ".ci/release-point: no version or commit"; exit 1; }

# The version the changelog declares for what is not yet released.
top=$(awk '/^## \[/ {print; exit}' CHANGELOG.md)
case "$top" in
  "## [Unreleased]"*)
    declared=$(awk '/^## \[/ {if (f) exit; if ($0 ~ /^## \[Unreleased\]/) f = 1; next}
      f && /^Next release:/ {v = $3; gsub(/[*`]/, "", v); print v; exit}' CHANGELOG.md)
    ;;
  *) declared=$(printf '%s\n' "$top" | sed -n 's/^## \[v\{0,1\}\([^]]*\)\].*/\1/p') ;;
esac
declared=${declared#v}

semver_re='^([0-9]+)\.([0-9]+)\.([0-9]+)(-[0-9A-Za-z.-]+)?$'
[[ $release_version =~ $semver_re ]] || { echo ".ci/release-point: version $release_version is not X.Y.Z"; exit 1; }
r_major=${BASH_REMATCH[1]} r_minor=${BASH_REMATCH[2]} r_patch=${BASH_REMATCH[3]}
if [ -n "$declared" ]; then
  [[ $declared =~ $semver_re ]] || { echo "CHANGELOG.md: next version '$declared' is not X.Y.Z"; exit 1; }
  d_major=${BASH_REMATCH[1]} d_minor=${BASH_REMATCH[2]} d_patch=${BASH_REMATCH[3]}
  if ! { [ "$d_major" -gt "$r_major" ] ||
    { [ "$d_major" -eq "$r_major" ] && [ "$d_minor" -gt "$r_minor" ]; } ||
    { [ "$d_major" -eq "$r_major" ] && [ "$d_minor" -eq "$r_minor" ] && [ "$d_patch" -gt "$r_patch" ]; }; }; then
    echo "CHANGELOG.md declares $declared, which is not above the last release, $release_version"
    exit 1
  fi
fi
echo "last release: $release_version (commit ${release_commit:0:12}); next version declared in CHANGELOG.md: ${declared:-none}"

if ! git cat-file -e "${release_commit}^{commit}" 2>/dev/null; then
  echo "the release commit ${release_commit:0:12} is not in this clone (a shallow clone?): fetch the history to compare"
  exit 1
fi

work=$(mktemp -d)
cleanup() {
  git worktree remove --force "$work/old" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
git worktree prune
git worktree add --quiet --detach "$work/old" "$release_commit"
go build -o "$work/apicompat" ./.ci/apicompat/main.go

if [ $# -eq 0 ]; then
  set -- $(find . \( -name .git -o -name testdata -o -name node_modules \) -prune -o -name go.mod -type f -print | sed 's|/go.mod$||' | LC_ALL=C sort)
fi

incompatible=0 compatible=0
for mod in "$@"; do
  mod=${mod#./}; mod=${mod:-.}
  if [ ! -f "$work/old/$mod/go.mod" ]; then
    echo "-- module $mod: added since the release, nothing to compare"
    continue
  fi
  # The module line of go.mod (in a workspace, go list -m names them all).
  new_path=$(awk '$1 == "module" {print $2; exit}' "$mod/go.mod")
  old_path=$(awk '$1 == "module" {print $2; exit}' "$work/old/$mod/go.mod")
  if [ "$new_path" != "$old_path" ]; then
    echo "-- module $mod: its path changed from $old_path to $new_path (a new major version)"
    incompatible=1
    continue
  fi
  echo "-- module $mod ($new_path)"
  (cd "$work/old/$mod" && apidiff -m -allow-internal -w "$work/old.api" "$old_path")
  (cd "$mod" && apidiff -m -allow-internal -w "$work/new.api" "$new_path")
  (cd "$work/old/$mod" && "$work/apicompat" exposed >"$work/old.exposed")
  (cd "$mod" && "$work/apicompat" exposed >"$work/new.exposed")
  apidiff -m -allow-internal "$work/old.api" "$work/new.api" >"$work/report"
  "$work/apicompat" filter "$work/old.exposed" "$work/new.exposed" <"$work/report" >"$work/public"
  if [ -s "$work/public" ]; then
    cat "$work/public"
  else
    echo "no change to the public API"
  fi
  grep -q '^Incompatible changes:' "$work/public" && incompatible=1
  grep -q '^Compatible changes:' "$work/public" && compatible=1
done

if [ "$incompatible" = 1 ]; then
  if [ -z "$declared" ]; then
    echo "FAIL: incompatible changes to the public API, and CHANGELOG.md declares no next version: add 'Next release: X.Y.Z' under [Unreleased] with a version that allows them"
    exit 1
  fi
  if [ "$r_major" = 0 ] && [ "$d_major" = 0 ]; then
    if [ "$d_minor" -le "$r_minor" ]; then
      echo "FAIL: incompatible changes to the public API need a new minor version below v1 ($release_version to 0.$((r_minor + 1)).0); CHANGELOG.md declares $declared"
      exit 1
    fi
  elif [ "$d_major" -le "$r_major" ]; then
    echo "FAIL: incompatible changes to the public API need a new major version ($((r_major + 1)).0.0, with the module path ending in /v$((r_major + 1))); CHANGELOG.md declares $declared"
    exit 1
  fi
  echo "incompatible changes, allowed by the next version $declared"
elif [ "$compatible" = 1 ]; then
  if [ -n "$declared" ] && [ "$d_major" -eq "$r_major" ] && [ "$d_minor" -eq "$r_minor" ]; then
    echo "FAIL: additions to the public API need a new minor version; CHANGELOG.md declares $declared, a patch release"
    exit 1
  fi
  echo "compatible changes only"
fi
if [ -n "$declared" ] && [ "$d_major" -ge 2 ] && [ "$d_major" -gt "$r_major" ]; then
  root_path=$(awk '$1 == "module" {print $2; exit}' go.mod)
  case "$root_path" in
    */v"$d_major") ;;
    *) echo "FAIL: version $declared needs the module path to end in /v$d_major (it is $root_path)"; exit 1 ;;
  esac
fi
# A release (the changelog's top section names a version, not
# [Unreleased]) must carry its version everywhere a user sees it: the SDK's
# Version (sent in the User-Agent), and the requirement of every module of
# the repository on the root module (a replace directive in a go.mod does
# not reach a user's build).
case "$top" in
  "## [Unreleased]"*) ;;
  *)
    root_path=$(awk '$1 == "module" {print $2; exit}' go.mod)
    sdk_version=$(grep -rhoE 'const Version = "[^"]+"' client.go | head -1 | sed 's/.*"\(.*\)"/\1/')
    if [ "$sdk_version" != "$declared" ]; then
      echo "FAIL: CHANGELOG.md releases $declared but the SDK's Version is '${sdk_version:-not found}'"
      exit 1
    fi
    for mod in "$@"; do
      mod=${mod#./}; mod=${mod:-.}
      [ "$mod" = . ] && continue
      required=$(awk -v p="$root_path" '$1 == p {print $2} $1 == "require" && $2 == p {print $3}' "$mod/go.mod" | head -1)
      if [ -n "$required" ] && [ "$required" != "v$declared" ]; then
        echo "FAIL: module $mod requires $root_path $required; a release requires v$declared"
        exit 1
      fi
    done
    echo "release $declared: the SDK's Version and every module's requirement of the root agree"
    ;;
esac
echo "public API check passed"
