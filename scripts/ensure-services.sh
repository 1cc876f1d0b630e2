#!/usr/bin/env bash
# The tests talk to a real Postgres (127.0.0.1:5432, trust auth) and a real Redis
# (127.0.0.1:6379). Start them if they are down; do nothing if they answer.
set -euo pipefail

pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }

if ! pg_up; then
  echo "ensure-services: starting Postgres"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start
  for _ in $(seq 1 60); do pg_up && break; sleep 0.5; done
  pg_up || { echo "ensure-services: Postgres did not come up on 127.0.0.1:5432" >&2; exit 1; }
fi

if ! redis_up; then
  echo "ensure-services: starting Redis"
  redis-server --daemonize yes --port 6379 --save "" --appendonly no
  for _ in $(seq 1 60); do redis_up && break; sleep 0.25; done
  redis_up || { echo "ensure-services: Redis did not come up on 127.0.0.1:6379" >&2; exit 1; }
fi
echo "ensure-services: Postgres and Redis are up"
