#!/usr/bin/env bash
# The side-by-side benchmark report. With no arguments: the quick mode (a few minutes), one table of ratios
# against each incumbent, also written to artifacts/benchmarks/quick-report.md.
#   scripts/bench.sh --full             BenchmarkDotNet's default job (long; for the README's table)
#   scripts/bench.sh --filter Signing   only the classes whose name contains "Signing" (repeat --filter for more)
#   scripts/bench.sh --faults           node faults on a three-node cluster, Spanwire and RabbitMQ.Client side by side
set -euo pipefail
cd "$(dirname "$0")/.."
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
if [ $# -eq 0 ]; then set -- --quick; fi

# The AMQP client comparison needs a broker: SPANWIRE_AMQP_URI, or a private node when rabbitmq-server is installed.
if [ -z "${SPANWIRE_AMQP_URI:-}" ] && [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ]; then
  node_dir=$(mktemp -d /tmp/spanwire-rabbitmq.XXXXXX)
  trap 'scripts/rabbitmq.sh stop "$node_dir"; rm -rf "$node_dir"' EXIT
  if uri=$(scripts/rabbitmq.sh start "$node_dir"); then export SPANWIRE_AMQP_URI=$uri; fi
fi
dotnet run -c Release --project bench/Spanwire.Benchmarks -- "$@"
