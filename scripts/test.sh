#!/usr/bin/env bash
# Builds everything and runs every test project. Ends with one line summing all projects:
#   N passed, N failed, N skipped
# Exits non-zero if the build fails or any test fails. Installs what the tests need: Debian's rabbitmq-server when
# it is missing, then a private node (own folder, 127.0.0.1, a free port) for the AMQP integration tests, stopped
# on exit whatever happens. SPANWIRE_AMQP_URI set beforehand points those tests at an existing broker instead.
set -uo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'USAGE'
Usage: scripts/test.sh [--long[=N]] [--help]

Builds everything, checks the style, and runs every test project; the last line sums them all:
"N passed, N failed, N skipped". Exits non-zero if the build, the style check or any test fails.

  --long[=N]  the differential, fuzz and walk tests run N times their usual count (default 30; the
              same as SPANWIRE_LONG_TESTS=N); expect tens of minutes
  --help      this text; nothing is built or run

The AMQP integration tests need RabbitMQ: the script installs Debian's rabbitmq-server when it is missing
and starts a private node for the run, unless SPANWIRE_AMQP_URI names a broker to use instead.
USAGE
}

for arg in "$@"; do
  case "$arg" in
    --help|-h) usage; exit 0 ;;
    --long) export SPANWIRE_LONG_TESTS=30 ;;
    --long=*)
      factor="${arg#--long=}"
      if ! [[ "$factor" =~ ^[1-9][0-9]*$ ]]; then
        echo "test.sh: --long takes a whole number of times, not '$factor'" >&2
        exit 2
      fi
      export SPANWIRE_LONG_TESTS="$factor" ;;
    *) echo "test.sh: unknown option '$arg' (see scripts/test.sh --help)" >&2; exit 2 ;;
  esac
done

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
# The broker tests run here even without a broker, and fail saying why: never skipped (tests/Shared/BrokerFact.cs).
export SPANWIRE_TEST_SCRIPT=1

if ! command -v dotnet >/dev/null 2>&1; then
  echo "test.sh: the .NET SDK (dotnet) is not on PATH; install the SDK named in global.json" >&2
  echo "0 passed, 0 failed"
  exit 1
fi

# Nothing large that is not source may be tracked (crash dumps, logs, build output): a file over 256 KB fails the run.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  large=$(git ls-files -z | xargs -0 -r stat -c '%s %n' 2>/dev/null | awk '$1 > 262144 && $2 !~ /\.cs$/ { print $2 }' | tr '\n' ' ')
  if [ -n "$large" ]; then
    echo "test.sh: tracked files over 256 KB that are not source: $large(remove them and ignore them)" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
fi

results="artifacts/test-results"
rm -rf "$results"
mkdir -p "$results"

# The broker starts in the background while the build runs.
node_dir=""
broker_log="$results/broker-start.log"
if [ -z "${SPANWIRE_AMQP_URI:-}" ]; then
  echo "== RabbitMQ: installing if missing, starting a private node"
  if scripts/rabbitmq.sh install 2> "$broker_log"; then
    node_dir=$(mktemp -d /tmp/spanwire-rabbitmq.XXXXXX)
    trap 'scripts/rabbitmq.sh stop "$node_dir"; rm -rf "$node_dir"' EXIT
    scripts/rabbitmq.sh start "$node_dir" > "$results/broker-uri" 2>> "$broker_log" &
    broker_pid=$!
  fi
fi

echo "== build (Release)"
if ! dotnet build Spanwire.slnx -c Release -v quiet -nologo; then
  echo "test.sh: the build failed; no tests ran" >&2
  echo "0 passed, 0 failed"
  exit 1
fi

# The one style, checked (formatting, naming and the .editorconfig rules at warning): a file that dotnet format would
# change fails the run, as a failed test does. 'dotnet format Spanwire.slnx' fixes it.
echo "== dotnet format --verify-no-changes"
format_failed=0
if ! dotnet format Spanwire.slnx --verify-no-changes --no-restore -v quiet > "$results/format.log" 2>&1; then
  format_failed=1
  echo "test.sh: the code is not in the one style ($(grep -c ': error' "$results/format.log") places; run 'dotnet format Spanwire.slnx'):" >&2
  head -n 20 "$results/format.log" >&2
fi

if [ -n "$node_dir" ]; then
  wait "$broker_pid" && export SPANWIRE_AMQP_URI=$(cat "$results/broker-uri")
fi
if [ -z "${SPANWIRE_AMQP_URI:-}" ]; then
  # The integration tests fail and print this; they are never skipped.
  export SPANWIRE_AMQP_UNAVAILABLE="$(tr '\n' ' ' < "$broker_log" 2>/dev/null)"
  echo "test.sh: no RabbitMQ broker: ${SPANWIRE_AMQP_UNAVAILABLE:-unknown reason}" >&2
else
  echo "== broker: $SPANWIRE_AMQP_URI"
fi

status=0
for project in $(find tests -name '*.csproj' | sort); do
  name=$(basename "$project" .csproj)
  echo "== $name"
  if ! dotnet test "$project" -c Release --no-build -nologo \
      --logger "trx;LogFileName=$name.trx" --logger "console;verbosity=minimal" \
      --results-directory "$results"; then
    status=1
  fi
  if [ ! -f "$results/$name.trx" ]; then
    echo "test.sh: $name produced no results (its test host failed to start or crashed)" >&2
    status=1
  fi
done

# Sum the counters of every project's results file.
passed=0; failed=0; skipped=0
for trx in "$results"/*.trx; do
  [ -f "$trx" ] || continue
  counters=$(grep -o '<Counters [^>]*>' "$trx" | head -n 1)
  get() { echo "$counters" | grep -o " $1=\"[0-9]*\"" | grep -o '[0-9]\+' || echo 0; }
  total=$(get total); executed=$(get executed)
  passed=$((passed + $(get passed)))
  failed=$((failed + $(get failed) + $(get error) + $(get timeout) + $(get aborted)))
  skipped=$((skipped + total - executed))
done

# The style check counts as one more check: it fails the run like a failing test.
failed=$((failed + format_failed))
[ "$failed" -gt 0 ] && status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
