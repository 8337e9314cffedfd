#!/usr/bin/env bash
# Production start: migrate, collect static files, check the deploy settings, then run
# WORKERS daphne processes on consecutive ports from BASE_PORT, behind a reverse proxy
# (see deploy/nginx.conf), and report each up once its /readyz answers (database,
# migrations and channel layer); a worker not ready within READY_WAIT seconds stops them
# all. Then TASK_WORKERS task workers (`manage.py db_worker`: hole reviews, league mail,
# re-rating) at the niceness TASK_NICE, below the servers; TASK_WORKERS=0 leaves the
# tasks to workers elsewhere (any machine that reaches the database runs
# `manage.py db_worker`). Stops them all on SIGTERM or Ctrl+C.
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
READY_WAIT=${READY_WAIT:-60}
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

# Where this script asks each worker whether it is ready: BIND itself, or loopback when
# the workers listen on every address.
case "$BIND" in
  0.0.0.0 | "") check_host=127.0.0.1 ;;
  :: | "[::]") check_host="[::1]" ;;
  *:*) check_host="[$BIND]" ;;
  *) check_host=$BIND ;;
esac

# Waits until http://HOST:PORT/readyz answers 200 (the worker's database answers with
# every migration applied, and its channel layer carries a message), at most READY_WAIT
# seconds, or until the worker's process PID has ended.
wait_ready() {
  "$PY" - "http://$check_host:$1/readyz" "$READY_WAIT" "$2" <<'PYTHON'
import os, sys, time, urllib.error, urllib.request

url, wait, pid = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
deadline = time.monotonic() + wait
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit(f"the worker behind {url} has exited")
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            if response.status == 200:
                sys.exit(0)
    except (OSError, urllib.error.URLError):
        pass
    time.sleep(0.5)
sys.exit(f"{url} did not answer ready within {wait:.0f} s")
PYTHON
}

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
done

for ((i = 0; i < WORKERS; i++)); do
  port=$((BASE_PORT + i))
  if ! wait_ready "$port" "${pids[$i]}"; then
    echo "worker $((i + 1)) on $BIND:$port is not ready: stopping every worker." >&2
    stop
    exit 1
  fi
  echo "worker $((i + 1)) on $BIND:$port is up (health: /healthz, /readyz; metrics: /metrics)"
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
