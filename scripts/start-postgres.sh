#!/usr/bin/env bash
# Start a throw-away PostgreSQL server on localhost for the UMLS tests (Debian packages) and print
# the SQLAlchemy URL to use. Used by .ci/run; run it by hand to run the PostgreSQL tests locally.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
ver=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
if [ -z "$ver" ]; then
  ver=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  $SUDO pg_createcluster "$ver" main >/dev/null
fi
$SUDO pg_ctlcluster "$ver" main start 2>/dev/null || true
for _ in $(seq 1 30); do
  if $SUDO -u postgres psql -qtAc "select 1" >/dev/null 2>&1 || su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 1
done
run_psql() { if [ -n "$SUDO" ]; then sudo -u postgres psql -qtAc "$1"; else su postgres -c "psql -qtAc \"$1\""; fi; }
run_psql "SELECT 1 FROM pg_roles WHERE rolname='rulecoref'" | grep -q 1 || run_psql "CREATE ROLE rulecoref LOGIN SUPERUSER PASSWORD 'rulecoref'"
run_psql "SELECT 1 FROM pg_database WHERE datname='rulecoref_test'" | grep -q 1 || run_psql "CREATE DATABASE rulecoref_test OWNER rulecoref"
echo "postgresql+psycopg://rulecoref:rulecoref@127.0.0.1:5432/rulecoref_test"
