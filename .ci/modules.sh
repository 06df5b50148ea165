#!/usr/bin/env bash
# The Go modules of this repository, and the checks and edits that treat
# each one as a user outside the repository sees it.
#
# A module is a directory holding a go.mod (test data and VCS metadata left
# out); the root comes first. A module that needs another module of the
# repository requires it at a real version (the next release), never a
# placeholder, and carries no replace directive: Go ignores a dependency's
# replace directives, so a user would inherit nothing from one. Development
# inside the repository uses go.work instead, which this script writes.
#
# Usage: .ci/modules.sh COMMAND [ARGS]
#   list              each module's directory, the root (.) first
#   path DIR          DIR's module path
#   order             the modules in release order: a module after every
#                     module of the repository it requires
#   work [-check]     write go.work: every module, the highest go directive,
#                     and each requirement of one module on another replaced
#                     by its directory at the required version (the version
#                     is not published before the release, and a workspace
#                     alone still reads that version's go.mod); -check
#                     fails instead when go.work differs
#   tidy [-diff] DIR...
#                     go mod tidy (with -diff: fail on what it would change)
#                     and go mod verify for each DIR outside workspace
#                     mode, as a user's build sees the module, with each
#                     module of the repository replaced by its directory in
#                     a temporary copy of go.mod: the real go.mod gets no
#                     replace directive and go.sum no line for a module of
#                     the repository (those lines would change with every
#                     commit)
#   gomod DIR CMD...  run CMD (a go command) in DIR on such a temporary
#                     go.mod, then write the result back without the
#                     replace directives (to change a dependency:
#                     .ci/modules.sh gomod journal go get pkg@version)
#   closure DIR       DIR and the modules of the repository it requires,
#                     directly or not
#   oldest-go DIR     the oldest Go release DIR's go directive allows
#   alone DIR FILE    write to FILE a go.work for building DIR under that
#                     Go: DIR and its closure, at DIR's go directive
#   outside DIR CMD...
#                     run CMD in DIR in a workspace of DIR alone, the other
#                     modules of the repository replaced by their
#                     directories: the versions a user's build of the
#                     module selects, not the repository workspace's (CI
#                     runs govulncheck so)
#   set-version VERSION
#                     make every requirement of one module of the
#                     repository on another VERSION (vX.Y.Z), and go.work
#                     follow (see docs/RELEASING.md)
set -euo pipefail
MODULES_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$PATH:/usr/local/go/bin"

# modules_list: the module directories, relative to the root, root first.
modules_list() {
  (cd "$MODULES_ROOT" && find . \( -name .git -o -name testdata -o -name node_modules \) -prune -o \
    -name go.mod -type f -print | sed 's|/go.mod$||; s|^\./||' | LC_ALL=C sort |
    awk '$0 == "." {print; next} {rest[++n] = $0} END {for (i = 1; i <= n; i++) print rest[i]}')
}

# modules_path DIR: the module path DIR's go.mod declares.
modules_path() {
  awk '$1 == "module" {gsub(/"/, "", $2); print $2; exit}' "$MODULES_ROOT/$1/go.mod"
}

# modules_go DIR: DIR's go directive.
modules_go() {
  awk '$1 == "go" {print $2; exit}' "$MODULES_ROOT/$1/go.mod"
}

# modules_requires DIR: "path version" of each requirement in DIR's go.mod.
modules_requires() {
  awk '
    $1 == "require" && $2 == "(" {block = 1; next}
    block && $1 == ")" {block = 0; next}
    block && NF >= 2 && $1 !~ /^\/\// {print $1, $2; next}
    $1 == "require" && NF >= 3 {print $2, $3}
  ' "$MODULES_ROOT/$1/go.mod"
}

# modules_table: "dir path" for every module.
modules_table() {
  local dir
  while IFS= read -r dir; do
    printf '%s %s\n' "$dir" "$(modules_path "$dir")"
  done < <(modules_list)
}

# modules_internal_requires DIR: "path version dir" of each requirement of
# DIR on a module of the repository.
modules_internal_requires() {
  local table
  table=$(modules_table)
  modules_requires "$1" | while read -r path version; do
    printf '%s\n' "$table" | awk -v p="$path" -v v="$version" '$2 == p {print p, v, $1}'
  done
}

# version_max A B: the higher of two go versions (1.23.2, 1.25.0, 1.25).
version_max() {
  printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n -k3,3n | tail -1
}

modules_order() {
  local -a pending done_list=()
  mapfile -t pending < <(modules_list)
  while [ ${#pending[@]} -gt 0 ]; do
    local -a next=()
    local progressed=0 dir
    for dir in "${pending[@]}"; do
      local ready=1 dep
      while read -r _ _ dep; do
        [ -z "$dep" ] && continue
        if ! printf '%s\n' "${done_list[@]}" | grep -qxF "$dep"; then
          ready=0
        fi
      done < <(modules_internal_requires "$dir")
      if [ "$ready" = 1 ]; then
        echo "$dir"
        done_list+=("$dir")
        progressed=1
      else
        next+=("$dir")
      fi
    done
    if [ "$progressed" = 0 ]; then
      echo "modules.sh: the modules ${next[*]} require each other in a cycle" >&2
      return 1
    fi
    pending=("${next[@]}")
  done
}

# modules_closure DIR: DIR and every module of the repository it requires,
# directly or through another, each once.
modules_closure() {
  local -a todo=("$1") seen=()
  while [ ${#todo[@]} -gt 0 ]; do
    local dir=${todo[0]} dep
    todo=("${todo[@]:1}")
    if [ ${#seen[@]} -gt 0 ] && printf '%s\n' "${seen[@]}" | grep -qxF "$dir"; then
      continue
    fi
    seen+=("$dir")
    echo "$dir"
    while read -r _ _ dep; do
      [ -n "$dep" ] && todo+=("$dep")
    done < <(modules_internal_requires "$dir")
  done
}

# modules_work_text PREFIX GOVERSION DIR...: a go.work using the module
# directories DIR (PREFIX before each: "./" for the repository's own,
# an absolute path for one elsewhere), with the go directive GOVERSION (the
# highest of theirs when empty) and the replaces their requirements on
# each other need.
modules_work_text() {
  local prefix=$1 goversion=$2 dir replaces
  shift 2
  if [ -z "$goversion" ]; then
    for dir in "$@"; do
      goversion=$(version_max "${goversion:-0}" "$(modules_go "$dir")")
    done
  fi
  if [ "$prefix" = ./ ]; then
    echo "// The workspace for development inside the repository, written by"
    echo "// .ci/modules.sh work: every module, and each requirement of one module"
    echo "// on another replaced by its directory at that version. Users of the"
    echo "// modules never see this file."
  fi
  echo "go $goversion"
  echo
  echo "use ("
  for dir in "$@"; do
    [ "$dir" = . ] && printf '\t%s\n' "${prefix%/}" || printf '\t%s%s\n' "$prefix" "$dir"
  done
  echo ")"
  replaces=$(for dir in "$@"; do modules_internal_requires "$dir"; done | LC_ALL=C sort -u)
  if [ -n "$replaces" ]; then
    echo
    echo "replace ("
    printf '%s\n' "$replaces" | while read -r path version target; do
      [ "$target" = . ] && target=$prefix || target=$prefix$target
      printf '\t%s %s => %s\n' "$path" "$version" "$target"
    done
    echo ")"
  fi
}

# modules_oldest_go DIR: the oldest Go release DIR's go directive allows:
# "go 1.23" and "go 1.23.0" both allow go1.23.0; "go 1.23.4" go1.23.4.
modules_oldest_go() {
  local v
  v=$(modules_go "$1")
  case "$v" in
    *.*.*) echo "go$v" ;;
    *.*) echo "go$v.0" ;;
    *) echo "$1/go.mod: no go directive" >&2; return 1 ;;
  esac
}

# modules_alone DIR FILE: write to FILE the go.work that builds DIR with the
# oldest Go its go directive allows: DIR and the modules of the repository
# it requires, at DIR's go directive. (The repository's go.work has the
# highest directive of all, which an older Go refuses.)
modules_alone() {
  local dir=$1 file=$2
  mapfile -t members < <(modules_closure "$dir")
  modules_work_text "$MODULES_ROOT/" "$(modules_go "$dir")" "${members[@]}" >"$file"
}

modules_work() {
  local want
  mapfile -t all < <(modules_list)
  want=$(modules_work_text ./ "" "${all[@]}")
  if [ "${1:-}" = -check ]; then
    if [ "$want" != "$(cat "$MODULES_ROOT/go.work" 2>/dev/null)" ]; then
      echo "go.work is not what .ci/modules.sh work writes; run it. The difference:"
      diff <(cat "$MODULES_ROOT/go.work" 2>/dev/null) <(printf '%s\n' "$want") || true
      return 1
    fi
    echo "go.work lists every module and replaces every requirement between them"
    return 0
  fi
  printf '%s\n' "$want" >"$MODULES_ROOT/go.work"
  echo "wrote go.work"
}

# modules_with_replaces DIR TMP: copy DIR's go.mod and go.sum into TMP, and
# add to the copy a replace of every module of the repository (but DIR's
# own) by its directory.
modules_with_replaces() {
  local dir=$1 tmp=$2 other path
  cp "$MODULES_ROOT/$dir/go.mod" "$tmp/go.mod"
  if [ -f "$MODULES_ROOT/$dir/go.sum" ]; then cp "$MODULES_ROOT/$dir/go.sum" "$tmp/go.sum"; else : >"$tmp/go.sum"; fi
  {
    echo
    echo "// modules.sh: the modules of the repository, from their directories"
    while IFS= read -r other; do
      [ "$other" = "$dir" ] && continue
      path=$(modules_path "$other")
      echo "replace $path => $MODULES_ROOT/$other"
    done < <(modules_list)
  } >>"$tmp/go.mod"
}

# modules_write_back DIR TMP: write TMP's go.mod (without the replaces
# modules_with_replaces added) and go.sum over DIR's.
modules_write_back() {
  local dir=$1 tmp=$2
  awk '/^\/\/ modules\.sh: the modules of the repository/ {exit} {print}' "$tmp/go.mod" |
    awk '{lines[NR] = $0} END {n = NR; while (n > 0 && lines[n] == "") n--; for (i = 1; i <= n; i++) print lines[i]}' \
      >"$MODULES_ROOT/$dir/go.mod"
  if [ -s "$tmp/go.sum" ]; then
    cp "$tmp/go.sum" "$MODULES_ROOT/$dir/go.sum"
  else
    rm -f "$MODULES_ROOT/$dir/go.sum"
  fi
}

modules_gomod() {
  local dir=${1%/} tmp rc=0
  shift
  dir=${dir#./}; dir=${dir:-.}
  tmp=$(mktemp -d)
  modules_with_replaces "$dir" "$tmp"
  (cd "$MODULES_ROOT/$dir" && GOWORK=off GOFLAGS="${GOFLAGS:-} -modfile=$tmp/go.mod" "$@") || rc=$?
  if [ "$rc" = 0 ]; then
    modules_write_back "$dir" "$tmp"
  fi
  rm -rf "$tmp"
  return "$rc"
}

# modules_outside DIR CMD...: run CMD in DIR as a build outside the
# repository sees the module: a workspace of DIR alone (so DIR's go.mod
# selects every version, as a user's build of it does), with every other
# module of the repository replaced by its directory. (A temporary go.mod
# through -modfile, as tidy uses, is refused by tools that also list
# packages outside the module.)
modules_outside() {
  local dir=${1%/} tmp rc=0 other
  shift
  dir=${dir#./}; dir=${dir:-.}
  tmp=$(mktemp -d)
  {
    echo "go $(modules_go "$dir")"
    if [ "$dir" = . ]; then echo "use $MODULES_ROOT"; else echo "use $MODULES_ROOT/$dir"; fi
    while IFS= read -r other; do
      [ "$other" = "$dir" ] && continue
      echo "replace $(modules_path "$other") => $MODULES_ROOT/$other"
    done < <(modules_list)
  } >"$tmp/go.work"
  (cd "$MODULES_ROOT/$dir" && GOWORK="$tmp/go.work" "$@") || rc=$?
  rm -rf "$tmp"
  return "$rc"
}

modules_tidy() {
  local diff=0 dir tmp rc=0
  if [ "${1:-}" = -diff ]; then
    diff=1
    shift
  fi
  [ $# -gt 0 ] || set -- $(modules_list)
  for dir in "$@"; do
    dir=${dir%/}; dir=${dir#./}; dir=${dir:-.}
    tmp=$(mktemp -d)
    modules_with_replaces "$dir" "$tmp"
    if [ "$diff" = 1 ]; then
      # go.mod and go.sum list exactly what the module's packages and
      # tests import, as a build outside the repository resolves them.
      if ! (cd "$MODULES_ROOT/$dir" && GOWORK=off go mod tidy -diff -modfile="$tmp/go.mod"); then
        echo "FAILED in module $dir: go mod tidy would change go.mod or go.sum (run .ci/modules.sh tidy $dir)"
        rc=1
      fi
    else
      (cd "$MODULES_ROOT/$dir" && GOWORK=off go mod tidy -modfile="$tmp/go.mod") || rc=1
      [ "$rc" = 0 ] && modules_write_back "$dir" "$tmp"
    fi
    if ! (cd "$MODULES_ROOT/$dir" && GOWORK=off go mod download -modfile="$tmp/go.mod" && GOWORK=off go mod verify -modfile="$tmp/go.mod"); then
      echo "FAILED in module $dir: go mod verify"
      rc=1
    fi
    rm -rf "$tmp"
  done
  return "$rc"
}

modules_set_version() {
  local version=$1 dir path
  [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || { echo "set-version: $version is not vX.Y.Z" >&2; return 1; }
  while IFS= read -r dir; do
    while read -r path _ _; do
      (cd "$MODULES_ROOT/$dir" && go mod edit -require="$path@$version")
      echo "$dir: requires $path $version"
    done < <(modules_internal_requires "$dir")
  done < <(modules_list)
  modules_work
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  cmd=${1:-}
  shift || true
  case "$cmd" in
    list) modules_list ;;
    path) modules_path "${1:?path DIR}" ;;
    order) modules_order ;;
    work) modules_work "$@" ;;
    tidy) modules_tidy "$@" ;;
    gomod) modules_gomod "$@" ;;
    outside) modules_outside "$@" ;;
    set-version) modules_set_version "${1:?set-version VERSION}" ;;
    closure) modules_closure "${1:?closure DIR}" ;;
    oldest-go) modules_oldest_go "${1:?oldest-go DIR}" ;;
    alone) modules_alone "${1:?alone DIR FILE}" "${2:?alone DIR FILE}" ;;
    *)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 2
      ;;
  esac
fi
