#!/usr/bin/env bash
# A private RabbitMQ node for the integration tests and benchmarks: its own folder, 127.0.0.1, a free port.
#   scripts/rabbitmq.sh install      install Debian's rabbitmq-server and openssl when missing (needs root or sudo)
#   scripts/rabbitmq.sh start DIR    start a node in DIR; prints its amqp:// URI on stdout once it is ready
#   scripts/rabbitmq.sh start DIR --tls
#                                    the same with a TLS listener too (port + 2) and EXTERNAL login: makes a test CA,
#                                    server and client certificates in DIR/tls (openssl), adds the user named by the
#                                    client certificate, and prints the amqps:// URI as a second line
#   scripts/rabbitmq.sh stop DIR     stop the node started in DIR and its own epmd (nothing else on the machine)
#   scripts/rabbitmq.sh kill DIR     kill -9 the node started in DIR (a crash, for fault tests); start brings it back
#   scripts/rabbitmq.sh ctl DIR ARGS run rabbitmqctl ARGS against the node in DIR (close_all_connections, ...)
#   scripts/rabbitmq.sh cluster DIR  start three nodes in DIR/n1, DIR/n2, DIR/n3 joined into one cluster (one Erlang
#                                    cookie, one epmd); prints amqp://guest:guest@127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/.
#                                    stop, kill and start DIR/nK act on one node (a restarted node rejoins by itself)
#   scripts/rabbitmq.sh cluster-stop DIR   stop the three nodes and their epmd
# A node keeps its port, name and data in DIR: starting it again in the same DIR brings back the same node, with
# its durable queues and persistent messages.
# Each node has its own epmd on a port of its own (ERL_EPMD_PORT), so stopping it never touches another node's, and
# a crash dump goes into DIR, never into the working directory.
# Messages go to stderr; each failure is one line saying why.
set -uo pipefail

bin=/usr/lib/rabbitmq/bin
say() { echo "rabbitmq.sh: $*" >&2; }

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A port P such that nothing listens on P, P+1 (the node's epmd), P+2 (TLS) or P+10000 (the node's distribution port),
# all four below the kernel's ephemeral range: a port in that range can be taken at any moment by an outgoing
# connection (the tests open many), between choosing it and the node binding it.
free_port() {
  local p low span
  low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  span=$((low - 10000 - 10000 - 3))
  [ "$span" -gt 1000 ] || span=1000
  for _ in $(seq 1 200); do
    p=$((10000 + RANDOM % span))
    if ! listening "$p" && ! listening $((p + 1)) && ! listening $((p + 2)) && ! listening $((p + 10000)); then
      echo "$p"; return
    fi
  done
  echo $((10000 + RANDOM % span))
}

# A CA, a server certificate for localhost and 127.0.0.1, a client certificate (CN spanwire-client) and, for the
# refusal tests, one from another CA and one naming a user the broker does not know, all in $1 (kept when present).
make_certificates() {
  local t=$1
  [ -f "$t/unknown-user.pem" ] && return 0
  command -v openssl >/dev/null || { say "openssl is needed for a TLS node (apt-get install openssl)"; return 1; }
  mkdir -p "$t" && (
    cd "$t" || exit 1
    issue() { # name subject ca
      openssl req -newkey rsa:2048 -nodes -subj "/CN=$2" -keyout "$1.key" -out "$1.csr" &&
      openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -CAcreateserial -days 30 -extfile "$1.ext" -out "$1.pem"
    }
    openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=Spanwire test CA" -keyout ca.key -out ca.pem || exit 1
    openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=Stranger CA" -keyout stranger-ca.key -out stranger-ca.pem || exit 1
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > server.ext
    for c in client stranger unknown-user; do printf 'extendedKeyUsage=clientAuth\n' > "$c.ext"; done
    issue server localhost ca && issue client spanwire-client ca && issue stranger spanwire-client stranger-ca &&
      issue unknown-user nobody-known ca || exit 1
    chmod 644 ./*.key
  ) > "$t/openssl.log" 2>&1 || { say "openssl could not make the test certificates (see $t/openssl.log)"; return 1; }
}

epmd_binary() { command -v epmd 2>/dev/null || ls /usr/lib/erlang/erts-*/bin/epmd 2>/dev/null | head -n 1; }

node_env() {
  local dir=$1 port=$2
  export HOME="$dir" RABBITMQ_NODENAME="spanwire$port@localhost" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
    RABBITMQ_NODE_PORT="$port" RABBITMQ_DIST_PORT=$((port + 10000)) \
    RABBITMQ_MNESIA_BASE="$dir/mnesia" RABBITMQ_LOG_BASE="$dir/log" \
    RABBITMQ_ENABLED_PLUGINS_FILE="$dir/enabled_plugins" RABBITMQ_FEATURE_FLAGS_FILE="$dir/feature_flags" \
    RABBITMQ_PLUGINS_EXPAND_DIR="$dir/plugins" RABBITMQ_CONFIG_FILE="$dir/rabbitmq.conf" \
    RABBITMQ_ADVANCED_CONFIG_FILE="$dir/advanced.config" RABBITMQ_CONF_ENV_FILE="$dir/rabbitmq-env.conf" \
    ERL_EPMD_PORT="$(cat "$dir/epmd-port" 2>/dev/null || echo $((port + 1)))" ERL_CRASH_DUMP="$dir/erl_crash.dump"
}

case "${1:-}" in
  install)
    missing=""
    [ -x "$bin/rabbitmq-server" ] || missing="rabbitmq-server"
    command -v openssl >/dev/null || missing="$missing openssl"   # the TLS tests' certificates
    [ -z "$missing" ] && exit 0
    if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo -n"; else
      say "$missing not installed and installing needs root"; exit 1; fi
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq $missing; } >/dev/null 2>&1; then
      say "apt-get could not install $missing"; exit 1
    fi
    # Debian's package may start a system node; the tests use their own, so stop it if it is running.
    ( $sudo service rabbitmq-server stop ) >/dev/null 2>&1 || true
    [ -x "$bin/rabbitmq-server" ] || { say "rabbitmq-server installed but $bin/rabbitmq-server is missing"; exit 1; }
    ;;
  start)
    dir=${2:?start needs a folder}
    tls=""; [ "${3:-}" = "--tls" ] && tls=1
    mkdir -p "$dir/log" "$dir/mnesia" && echo "[]." > "$dir/enabled_plugins" && : > "$dir/rabbitmq-env.conf"
    echo "loopback_users.guest = true" > "$dir/rabbitmq.conf"
    if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
      say "a node is already running in $dir"; exit 1
    fi
    if [ -f "$dir/port" ]; then
      port=$(cat "$dir/port")   # the same node again: same port, name and data
      for _ in $(seq 1 30); do   # a node just stopped may still be closing its listeners
        listening "$port" || listening $((port + 10000)) || break
        sleep 0.5
      done
      if listening "$port" || listening $((port + 10000)); then
        say "port $port (or its distribution port) of the node in $dir is taken by another process"; exit 1
      fi
    else
      port=$(free_port)
      echo "$port" > "$dir/port"
    fi
    if [ -n "$tls" ]; then
      make_certificates "$dir/tls" || exit 1
      echo "[rabbitmq_auth_mechanism_ssl]." > "$dir/enabled_plugins"
      { echo "listeners.ssl.default = $((port + 2))"
        echo "ssl_options.cacertfile = $dir/tls/ca.pem"
        echo "ssl_options.certfile = $dir/tls/server.pem"
        echo "ssl_options.keyfile = $dir/tls/server.key"
        echo "ssl_options.verify = verify_peer"
        echo "ssl_options.fail_if_no_peer_cert = false"
        echo "ssl_cert_login_from = common_name"
        echo "auth_mechanisms.1 = PLAIN"
        echo "auth_mechanisms.2 = AMQPLAIN"
        echo "auth_mechanisms.3 = EXTERNAL"
      } >> "$dir/rabbitmq.conf"
    fi
    # A node started again on its old port can find the port still held for a while by the connections its last run
    # closed (TIME_WAIT); it then exits at once (could_not_start_listener), and starting again a little later works.
    for attempt in $(seq 1 20); do
      ( node_env "$dir" "$port"; exec setsid "$bin/rabbitmq-server" > "$dir/log/console.log" 2>&1 ) &
      echo $! > "$dir/pid"
      ( node_env "$dir" "$port"
        for _ in $(seq 1 90); do
          if "$bin/rabbitmqctl" -n "$RABBITMQ_NODENAME" -q await_startup >/dev/null 2>&1; then exit 0; fi
          kill -0 "$(cat "$dir/pid")" 2>/dev/null || exit 2
          sleep 1
        done; exit 1 )
      started=$?
      [ "$started" -eq 2 ] && [ "$attempt" -lt 20 ] && grep -q could_not_start_listener "$dir/log/console.log" 2>/dev/null || break
      sleep 3
    done
    case $started in
      0) echo "amqp://guest:guest@127.0.0.1:$port/"
         if [ -n "$tls" ]; then
           # The user the client certificate names (EXTERNAL logs in as it); its password is never used.
           ( node_env "$dir" "$port"
             ctl() { "$bin/rabbitmqctl" -n "$RABBITMQ_NODENAME" -q "$@" >/dev/null 2>&1; }
             "$bin/rabbitmqctl" -n "$RABBITMQ_NODENAME" -q list_users 2>/dev/null | grep -q '^spanwire-client' ||
               ctl add_user spanwire-client "$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')" || exit 1
             ctl set_permissions -p / spanwire-client ".*" ".*" ".*" ) || { say "could not add the TLS client's user"; exit 1; }
           echo "amqps://localhost:$((port + 2))/"
         fi ;;
      2) say "the node exited during start-up; last log lines: $(tail -n 3 "$dir/log/console.log" | tr '\n' ' ')"; exit 1 ;;
      *) say "the node did not become ready within 90 s (log: $dir/log)"; exit 1 ;;
    esac
    ;;
  stop)
    dir=${2:?stop needs a folder}
    [ -f "$dir/port" ] && [ -f "$dir/pid" ] || exit 0
    port=$(cat "$dir/port")
    ( node_env "$dir" "$port"; timeout 30 "$bin/rabbitmqctl" -n "$RABBITMQ_NODENAME" -q shutdown >/dev/null 2>&1 )
    for _ in $(seq 1 20); do   # shutdown can return while the VM still closes its listeners
      listening "$port" || break
      sleep 0.5
    done
    if pgrep -s "$(cat "$dir/pid")" >/dev/null 2>&1; then
      pkill -TERM -s "$(cat "$dir/pid")" 2>/dev/null; sleep 1; pkill -KILL -s "$(cat "$dir/pid")" 2>/dev/null
    fi
    # epmd outlives the node: end the node's own one, by its port (never by name: other nodes have theirs); a
    # cluster's shared one stays until cluster-stop.
    if [ ! -f "$dir/epmd-port" ] && epmd=$(epmd_binary) && [ -n "$epmd" ]; then "$epmd" -port $((port + 1)) -kill >/dev/null 2>&1 || true; fi
    rm -f "$dir/pid"   # the port stays: the next start in DIR is the same node
    ;;
  kill)
    dir=${2:?kill needs a folder}
    [ -f "$dir/pid" ] || exit 0
    pkill -KILL -s "$(cat "$dir/pid")" 2>/dev/null
    port=$(cat "$dir/port")
    if [ ! -f "$dir/epmd-port" ] && epmd=$(epmd_binary) && [ -n "$epmd" ]; then "$epmd" -port $((port + 1)) -kill >/dev/null 2>&1 || true; fi
    rm -f "$dir/pid"
    ;;
  cluster)
    dir=${2:?cluster needs a folder}
    mkdir -p "$dir/n1" "$dir/n2" "$dir/n3"
    cookie=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    ports=""
    for i in 1 2 3; do
      p=$(free_port)
      while case " $ports " in *" $p "*) true ;; *) false ;; esac; do p=$(free_port); done
      ports="$ports $p"
    done
    set -- $ports
    epmd_port=$(($1 + 1))
    i=0
    for p in "$@"; do
      i=$((i + 1)); n="$dir/n$i"
      echo "$p" > "$n/port"; echo "$epmd_port" > "$n/epmd-port"
      printf '%s' "$cookie" > "$n/.erlang.cookie"; chmod 400 "$n/.erlang.cookie"
    done
    # Started one after another: three nodes booting at once on two cores can each miss their start-up deadline.
    for i in 1 2 3; do
      "$0" start "$dir/n$i" > "$dir/n$i/uri" || { say "cluster node n$i did not start"; exit 1; }
    done
    first="spanwire$1@localhost"
    for i in 2 3; do
      ( node_env "$dir/n$i" "$(cat "$dir/n$i/port")"
        ctl() { "$bin/rabbitmqctl" -n "$RABBITMQ_NODENAME" -q "$@" >/dev/null 2>&1; }
        ctl stop_app && ctl join_cluster "$first" && ctl start_app && ctl await_startup ) \
        || { say "node n$i could not join the cluster (log: $dir/n$i/log)"; exit 1; }
    done
    echo "amqp://guest:guest@127.0.0.1:$1,127.0.0.1:$2,127.0.0.1:$3/"
    ;;
  cluster-stop)
    dir=${2:?cluster-stop needs a folder}
    for i in 3 2 1; do [ -d "$dir/n$i" ] && "$0" stop "$dir/n$i"; done
    if [ -f "$dir/n1/epmd-port" ] && epmd=$(epmd_binary) && [ -n "$epmd" ]; then
      "$epmd" -port "$(cat "$dir/n1/epmd-port")" -kill >/dev/null 2>&1 || true
    fi
    ;;
  ctl)
    dir=${2:?ctl needs a folder}; shift 2
    [ -f "$dir/port" ] || { say "no node in $dir"; exit 1; }
    port=$(cat "$dir/port")
    ( node_env "$dir" "$port"; exec "$bin/rabbitmqctl" -n "$RABBITMQ_NODENAME" -q "$@" )
    ;;
  *)
    say "usage: rabbitmq.sh install | start DIR [--tls] | stop DIR | kill DIR | ctl DIR ARGS... | cluster DIR | cluster-stop DIR"; exit 2 ;;
esac
