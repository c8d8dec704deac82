#!/bin/sh
# Deckhand's own Redis, as a continuous job of the tool (Procfile `redis`; docs/deploy-toolforge.md):
# password required, append-only file on, noeviction (BullMQ loses jobs under eviction). The password
# goes in through stdin (a here-document), so it is not on the command line; the data lives under REDIS_DIR.
set -eu
if [ -z "${REDIS_PASSWORD:-}" ]; then
  echo "REDIS_PASSWORD is not set: run \`toolforge envvars create REDIS_PASSWORD\` with \`openssl rand -hex 24\`." >&2
  exit 2
fi
dir="${REDIS_DIR:-${TOOL_DATA_DIR:-$HOME}/redis}"
mkdir -p "$dir"
# exec: redis-server replaces the shell, so it receives the job's SIGTERM and saves before it stops.
exec redis-server - --port "${REDIS_PORT:-6379}" --dir "$dir" --appendonly yes --maxmemory-policy noeviction --save '' <<CONFIG
requirepass "$REDIS_PASSWORD"
CONFIG
