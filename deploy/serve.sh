#!/usr/bin/env bash
# Production start: migrate, collect static files, check the deploy settings, then run
# WORKERS daphne processes on consecutive ports from BASE_PORT, behind a reverse proxy
# (see deploy/nginx.conf), and TASK_WORKERS task workers (`manage.py db_worker`: hole
# reviews, league mail, re-rating) at the niceness TASK_NICE, below the servers. Stops
# them all on SIGTERM or Ctrl+C. TASK_WORKERS=0 leaves the tasks to workers elsewhere
# (any machine that reaches the database runs `manage.py db_worker`).
set -euo pipefail
cd "$(dirname "$0")/.."

: "${DATABASE_URL:?set DATABASE_URL (PostgreSQL) for production}"
: "${SECRET_KEY:?set SECRET_KEY}"
WORKERS=${WORKERS:-2}
TASK_WORKERS=${TASK_WORKERS:-1}
TASK_NICE=${TASK_NICE:-19}
BASE_PORT=${BASE_PORT:-8001}
BIND=${BIND:-127.0.0.1}
PY=${PY:-.venv/bin/python}
export DEBUG=${DEBUG:-false}
# The workers sit behind the proxy (deploy/nginx.conf): a log-in's address is the one the
# proxy wrote into X-Forwarded-For. Bind the workers where only the proxy reaches them.
export BEHIND_PROXY=${BEHIND_PROXY:-true}
if [ "$WORKERS" -gt 1 ] && [ -z "${REDIS_URL:-}" ]; then
  echo "REDIS_URL is required with more than one worker: the processes share the channel layer." >&2
  exit 2
fi

"$PY" manage.py migrate --noinput
"$PY" manage.py collectstatic --noinput -v0
"$PY" manage.py check --deploy --fail-level WARNING

pids=()
stop() {
  # SIGTERM lets each daphne close its sockets so browsers reconnect to another worker.
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait
}
trap stop INT TERM

for ((i = 0; i < WORKERS; i++)); do
  port=$((BASE_PORT + i))
  # A move is a few hundred bytes and the app refuses over 4 KB; daphne drops frames
  # over 64 KB by closing the connection (its default limit is 1 MiB). --proxy-headers
  # makes the first address of X-Forwarded-For the request's (and its log line's): the
  # client's only where the proxy overwrites the header, as deploy/nginx.conf does.
  # Log-ins count the last address (BEHIND_PROXY) either way.
  "$PY" -m daphne -b "$BIND" -p "$port" --proxy-headers \
    --websocket-max-message-size 65536 config.asgi:application &
  pids+=("$!")
  echo "worker $((i + 1)) on $BIND:$port"
done
for ((i = 0; i < TASK_WORKERS; i++)); do
  # A review is seconds of playouts: at a lower priority they never take a core from
  # a move. SIGTERM lets a worker finish its task; one killed outright loses nothing
  # (another worker runs the task again once its lease is over: games/tasks.py).
  nice -n "$TASK_NICE" "$PY" manage.py db_worker --no-reload &
  pids+=("$!")
  echo "task worker $((i + 1)) at nice $TASK_NICE"
done
wait
