#!/usr/bin/env bash
# The side-by-side benchmark report. With no arguments: the quick mode (a few minutes), one table of ratios
# against each incumbent, also written to artifacts/benchmarks/quick-report.md.
#   scripts/bench.sh --full             BenchmarkDotNet's default job (long; for the README's table)
#   scripts/bench.sh --filter Signing   only the classes whose name contains "Signing" (repeat --filter for more)
#   scripts/bench.sh --faults           node faults on a three-node cluster, Spanwire and RabbitMQ.Client side by side
#   scripts/bench.sh --compare A B      two saved reports side by side, each row's change
set -euo pipefail
cd "$(dirname "$0")/.."
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
for arg in "$@"; do
  if [ "$arg" = "--help" ] || [ "$arg" = "-h" ]; then
    cat <<'USAGE'
Usage: scripts/bench.sh [--quick | --full | --steady | --stable] [--filter NAME]... [--publish] | --faults | --compare A B | --help

Runs Spanwire beside each incumbent and prints one table of ratios (lower is faster), also written to
artifacts/benchmarks/<mode>-report.md.

  --quick        the default: a few minutes
  --full         BenchmarkDotNet's default job (long)
  --steady       each scenario's methods in turn in one process, shuffled rounds
  --stable       the same in three processes per scenario, combined (figures that hold from run to run;
                 rows whose processes lie more than 15% apart, or 5% for a row with a
                 target, are marked unstable; the report ends with each target's status)
  --filter NAME  only the benchmark classes whose name contains NAME; repeat for more
  --publish      also write the report to docs/performance.md
  --faults       node faults on a three-node RabbitMQ cluster, Spanwire and RabbitMQ.Client side by side
  --compare A B  two saved reports (e.g. docs/performance.md and artifacts/benchmarks/steady-report.md) side by
                 side: each row's ratio in both, its change, and how many rows moved more than 10%
  --help         this text; nothing is built, started or run

The AMQP client rows need RabbitMQ: SPANWIRE_AMQP_URI, or a private node the script starts when
rabbitmq-server is installed (scripts/rabbitmq.sh install).
USAGE
    exit 0
  fi
done
if [ $# -eq 0 ]; then set -- --quick; fi

# The AMQP client comparison needs a broker: SPANWIRE_AMQP_URI, or a private node when rabbitmq-server is installed.
if [ "$1" != "--compare" ] && [ -z "${SPANWIRE_AMQP_URI:-}" ] && [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ]; then
  node_dir=$(mktemp -d /tmp/spanwire-rabbitmq.XXXXXX)
  trap 'scripts/rabbitmq.sh stop "$node_dir"; rm -rf "$node_dir"' EXIT
  if uri=$(scripts/rabbitmq.sh start "$node_dir"); then export SPANWIRE_AMQP_URI=$uri; fi
fi
dotnet run -c Release --project bench/Spanwire.Benchmarks -- "$@"
