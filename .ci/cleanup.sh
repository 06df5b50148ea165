# Cleanup registration for the service scripts (.ci/postgres.sh,
# .ci/pgbouncer.sh), which source this file.

# ci_on_exit COMMAND: runs COMMAND when the shell ends. Sourced from
# .ci/run, COMMAND goes to .ci/run's on_exit; elsewhere an EXIT trap runs
# every command registered here, the last first, so that sourcing several
# service scripts into one shell stops each of them.
ci_on_exit() {
  if declare -F on_exit >/dev/null; then
    on_exit "$1"
    return
  fi
  ci_exit_commands=("$1" ${ci_exit_commands[@]+"${ci_exit_commands[@]}"})
  trap 'for c in "${ci_exit_commands[@]}"; do eval "$c" || true; done' EXIT
}
