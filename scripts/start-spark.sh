#!/usr/bin/env bash
# Start a Spark standalone cluster on this machine, one master and one worker, from the pyspark
# that pip installed (rulecoref[spark]: nothing is downloaded; Java from Debian's
# default-jre-headless, installed here when missing), wait until the worker has registered with
# the master, and print the master's URL, spark://127.0.0.1:PORT, as the last line. Used by .ci/run
# for the cluster tests; by hand: rulecoref spark-resolve DATA --out OUT --master "$(bash
# scripts/start-spark.sh | tail -n 1)".
#
#   scripts/start-spark.sh [--cores N] [--memory 2g]   start (or print the URL of the one running)
#   scripts/start-spark.sh --stop                      stop exactly the processes it started
#
# Everything lives in $RULECOREF_SPARK_DIR (default /tmp/rulecoref-spark-$UID): the pid files,
# the URL, the logs (master.log, worker.log) and the worker's scratch folder. Both processes
# listen on 127.0.0.1 only, on free ports. PYTHON (default: this clone's .venv/bin/python, else
# python3) is the Python whose pyspark is used.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
state=${RULECOREF_SPARK_DIR:-${TMPDIR:-/tmp}/rulecoref-spark-$(id -u)}
cores=$(nproc 2>/dev/null || echo 2)
memory=2g
stop=0
while (($#)); do
  case "$1" in
    --stop) stop=1 ;;
    --cores) cores=$2; shift ;;
    --memory) memory=$2; shift ;;
    *) echo "start-spark.sh: unknown option $1 (--stop, --cores N, --memory SIZE)" >&2; exit 2 ;;
  esac
  shift
done

alive() { [ -f "$state/$1.pid" ] && kill -0 "$(cat "$state/$1.pid")" 2>/dev/null; }

stop_one() {  # TERM, then KILL after 10 s; only the pid this script recorded
  local name=$1 pid
  [ -f "$state/$name.pid" ] || return 0
  pid=$(cat "$state/$name.pid")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$state/$name.pid"
}

if ((stop)); then
  stop_one worker
  stop_one master
  rm -f "$state/url"
  echo "start-spark.sh: stopped the cluster of $state"
  exit 0
fi

if alive master && alive worker && [ -f "$state/url" ]; then  # started before: the same cluster
  cat "$state/url"
  exit 0
fi
stop_one worker  # half a cluster (one process died): start both afresh
stop_one master

python=${PYTHON:-}
if [ -z "$python" ]; then
  if [ -x "$repo/.venv/bin/python" ]; then python="$repo/.venv/bin/python"; else python=python3; fi
fi
spark_home=$("$python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))' 2>/dev/null) || {
  echo "start-spark.sh: $python has no pyspark (pip install 'rulecoref[spark]', or bash scripts/setup.sh)" >&2
  exit 1
}
if ! command -v java >/dev/null 2>&1 && [ -z "${JAVA_HOME:-}" ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends default-jre-headless >/dev/null
fi

mkdir -p "$state/work"
read -r port ui worker_ui < <("$python" - <<'EOF'
import socket
socks = [socket.socket() for _ in range(3)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))
for s in socks:
    s.close()
EOF
)
export SPARK_HOME="$spark_home" SPARK_LOCAL_IP=127.0.0.1 SPARK_WORKER_DIR="$state/work"
url="spark://127.0.0.1:$port"

# spark-class execs java: $! is the JVM itself. setsid: the cluster outlives this shell's group.
setsid "$spark_home/bin/spark-class" org.apache.spark.deploy.master.Master \
  --host 127.0.0.1 --port "$port" --webui-port "$ui" >"$state/master.log" 2>&1 </dev/null &
echo $! >"$state/master.pid"
setsid "$spark_home/bin/spark-class" org.apache.spark.deploy.worker.Worker "$url" \
  --host 127.0.0.1 --webui-port "$worker_ui" --cores "$cores" --memory "$memory" --work-dir "$state/work" \
  >"$state/worker.log" 2>&1 </dev/null &
echo $! >"$state/worker.pid"

for _ in $(seq 1 120); do
  if grep -q "Successfully registered with master" "$state/worker.log" 2>/dev/null; then
    echo "$url" >"$state/url"
    echo "start-spark.sh: master and one worker ($cores cores, $memory) registered; logs in $state" >&2
    echo "$url"
    exit 0
  fi
  if ! alive master || ! alive worker; then break; fi
  sleep 0.5
done
echo "start-spark.sh: the worker did not register with $url within 60 s; the logs:" >&2
tail -n 20 "$state/master.log" "$state/worker.log" >&2 || true
stop_one worker
stop_one master
exit 1
