#!/usr/bin/env bash
# Starts the local services the test suite talks to, when they are not already answering:
# PostgreSQL on 127.0.0.1:5432 (the storage conformance suite runs against it) and Redis on 127.0.0.1:6379,
# and installs the Chromium the inspector's browser tests drive.
set -uo pipefail

pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

if ! command -v pg_isready >/dev/null || ! command -v redis-cli >/dev/null; then
  echo "services: installing postgresql and redis-server from Debian"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null
fi

# Debian's Chromium, driven by playwright-core in the inspector's browser tests (testing/ui).
if [ ! -x /usr/bin/chromium ]; then
  echo "services: installing chromium from Debian"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
[ -x /usr/bin/chromium ] && echo "services: chromium ready" || echo "services: chromium NOT installed"

if ! pg_up; then
  echo "services: starting PostgreSQL"
  version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$version" ]; then
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  fi
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi
pg_up && echo "services: PostgreSQL ready" || echo "services: PostgreSQL NOT reachable"

if ! redis_up; then
  echo "services: starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  for _ in $(seq 1 30); do redis_up && break; sleep 1; done
fi
redis_up && echo "services: Redis ready" || echo "services: Redis NOT reachable"
exit 0
