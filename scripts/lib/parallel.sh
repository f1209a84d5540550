# Runs parts of a check at once, for scripts/test.sh and .ci/run (decision 159). Source it, then:
#   start NAME COMMAND...   runs COMMAND in the background: its lines prefixed with [NAME], kept in $LOG_DIR/NAME.log
#   finish NAME             waits for NAME, records its exit status and duration
#   skip NAME REASON        records a part that could not run (a failure)
#   summary TITLE           prints the end of each failed part's log (CI keeps only the last lines of a run, and a
#                           part that failed early is otherwise buried under the parts that ran on), then each part's
#                           duration and outcome; returns 1 if any part failed or did not run
# Each part runs in its own process group, so that Ctrl-C (or CI's cancel) stops every process a part started.

LOG_DIR="${TEST_LOG_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sharpline-check.XXXXXX")}"
mkdir -p "$LOG_DIR"
declare -A PART_PID PART_STARTED PART_STATUS PART_SECONDS
PART_ORDER=()
set -m

start() {
  local name=$1
  shift
  PART_ORDER+=("$name")
  PART_STARTED[$name]=$SECONDS
  echo "[$name] started: $*"
  (
    set -o pipefail
    "$@" 2>&1 | tee "$LOG_DIR/$name.log" | sed -u "s/^/[$name] /"
  ) &
  PART_PID[$name]=$!
}

finish() {
  local name=$1
  wait "${PART_PID[$name]}"
  PART_STATUS[$name]=$?
  PART_SECONDS[$name]=$((SECONDS - PART_STARTED[$name]))
  echo "[$name] exited ${PART_STATUS[$name]} after ${PART_SECONDS[$name]} s"
}

skip() {
  PART_ORDER+=("$1")
  PART_STATUS[$1]="not run ($2)"
  PART_SECONDS[$1]=0
  echo "[$1] not run: $2"
}

summary() {
  local name outcome failed=0
  for name in "${PART_ORDER[@]}"; do
    case "${PART_STATUS[$name]}" in
      0) ;;
      [0-9]*)
        echo
        echo "── $name failed: the last ${FAILED_TAIL_LINES:-80} lines of $LOG_DIR/$name.log ──"
        tail -n "${FAILED_TAIL_LINES:-80}" "$LOG_DIR/$name.log"
        ;;
    esac
  done
  echo
  echo "$1: ${SECONDS} s (logs in $LOG_DIR)"
  for name in "${PART_ORDER[@]}"; do
    case "${PART_STATUS[$name]}" in
      0) outcome=passed ;;
      [0-9]*) outcome="FAILED (exit ${PART_STATUS[$name]})" ;;
      *) outcome="${PART_STATUS[$name]}" ;;
    esac
    printf '  %-12s %5s s  %s\n' "$name" "${PART_SECONDS[$name]}" "$outcome"
    [ "${PART_STATUS[$name]}" = 0 ] || failed=1
  done
  return "$failed"
}

stop_all() {
  local name
  for name in "${PART_ORDER[@]}"; do
    [ -n "${PART_PID[$name]:-}" ] && kill -- "-${PART_PID[$name]}" 2>/dev/null
  done
  exit 130
}
trap stop_all INT TERM
