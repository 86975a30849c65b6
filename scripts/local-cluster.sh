#!/usr/bin/env bash
# A local HotPlex cluster for trying it out: a PostgreSQL server, a NATS
# server with JetStream and three `hotplex serve` nodes on
# 127.0.0.1:8081-8083 that share one admin key (printed once, kept in
# $DIR/admin.key), one database and one tree of work directories.
# Everything lives in $HOTPLEX_CLUSTER_DIR (default .hotplex-cluster/) and
# stops on Ctrl-C or SIGTERM. `make cluster` builds what it needs first.
#
# Settings: HOTPLEX_CLUSTER_DIR, HOTPLEX_CLUSTER_PORT (first node's port,
# default 8081), HOTPLEX_CLUSTER_NODES (default 3), HOTPLEX_BIN and
# NATS_SERVER_BIN (the programs), HOTPLEX_CLUSTER_ARGS (more serve flags).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mkdir -p "${HOTPLEX_CLUSTER_DIR:-$root/.hotplex-cluster}" && cd "${HOTPLEX_CLUSTER_DIR:-$root/.hotplex-cluster}" && pwd)
port=${HOTPLEX_CLUSTER_PORT:-8081}
nodes=${HOTPLEX_CLUSTER_NODES:-3}
hotplex=${HOTPLEX_BIN:-$root/bin/hotplex}
nats=${NATS_SERVER_BIN:-$root/.tools/bin/nats-server}
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$pgbin" ] || pgbin=$(dirname "$(command -v initdb)")
pgport=$((port + 100))
natsport=$((port + 200))

# PostgreSQL refuses to run as root: its files then belong to "postgres".
as_pg() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pids=()
cleanup() {
	trap - INT TERM EXIT
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		kill -TERM "${pids[i]}" 2>/dev/null || true
		wait "${pids[i]}" 2>/dev/null || true
	done
	as_pg "$pgbin/pg_ctl" -D "$dir/pg" -m fast -w stop >/dev/null 2>&1 || true
	echo "local cluster stopped"
}
trap cleanup INT TERM EXIT

mkdir -p "$dir/pgsock" "$dir/nats" "$dir/work"
if [ "$(id -u)" = 0 ]; then chown postgres "$dir/pgsock"; chmod o+x "$dir"; fi
if [ ! -f "$dir/pg/PG_VERSION" ]; then
	mkdir -p "$dir/pg"
	[ "$(id -u)" = 0 ] && chown postgres "$dir/pg"
	as_pg "$pgbin/initdb" -D "$dir/pg" -U postgres --auth=trust >"$dir/initdb.log"
fi
as_pg "$pgbin/pg_ctl" -D "$dir/pg" -l "$dir/pg/server.log" -w \
	-o "-p $pgport -k $dir/pgsock -c listen_addresses=''" start >/dev/null
as_pg "$pgbin/createdb" -h "$dir/pgsock" -p "$pgport" -U postgres hotplex 2>/dev/null || true
dsn="postgres:///hotplex?host=$dir/pgsock&port=$pgport&user=postgres"

"$nats" -js -sd "$dir/nats" -a 127.0.0.1 -p "$natsport" >"$dir/nats.log" 2>&1 &
pids+=($!)

# The first node creates the admin key, the others read it.
for ((i = 1; i <= nodes; i++)); do
	p=$((port + i - 1))
	# shellcheck disable=SC2086
	"$hotplex" serve --listen "127.0.0.1:$p" --node-id "n$i" --advertise-url "http://127.0.0.1:$p" \
		--postgres "$dsn" --nats "nats://127.0.0.1:$natsport" \
		--data-dir "$dir/node$i" --work-dir-root "$dir/work" --admin-key-file "$dir/admin.key" \
		${HOTPLEX_CLUSTER_ARGS:-} >"$dir/node$i.out" 2>"$dir/node$i.log" &
	pids+=($!)
	for _ in $(seq 600); do
		grep -q "HotPlex is serving on" "$dir/node$i.out" 2>/dev/null && break
		kill -0 "${pids[-1]}" 2>/dev/null || { echo "node n$i did not start:"; tail -n 20 "$dir/node$i.log"; exit 1; }
		sleep 0.1
	done
	echo "node n$i: http://127.0.0.1:$p"
done
echo "admin key: $(cat "$dir/admin.key")"
echo "cluster status: $hotplex cluster status --url http://127.0.0.1:$port --key \$(cat $dir/admin.key)"
echo "local cluster ready; Ctrl-C stops it"
wait -n "${pids[@]}" || true
