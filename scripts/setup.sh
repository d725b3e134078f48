#!/usr/bin/env bash
# Set up rulecoref on a Debian/Ubuntu machine, for the README's first command. Safe to run again.
#
# What it installs, and where:
#   * Debian packages, through apt-get (with sudo when not root), only those missing:
#       wordnet-base   WordNet 3.0 in /usr/share/wordnet, read offline (never downloaded at run time)
#       python3-venv   only when `python3 -m venv` cannot make an environment (Debian's system Python)
#   * a virtual environment in .venv/ of this clone (RULECOREF_VENV overrides the folder), holding
#     rulecoref installed editable with every extra (rulecoref[all]: UMLS, PostgreSQL driver, web
#     lookup, Bell tree, evaluation, spaCy, Spark, tests, browser) but medspacy, whose spaCy and
#     NumPy pins are older on Python 3.11 (.ci/run tests it in an environment of its own). Nothing is
#     installed into the system Python, so PEP 668 ("externally-managed-environment") never applies.
# Afterwards, `. .venv/bin/activate` puts `rulecoref` and the environment's python3 first on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${RULECOREF_VENV:-.venv}
PYTHON=${PYTHON:-python3}

say() { printf 'rulecoref setup: %s\n' "$*" >&2; }

if ! command -v "$PYTHON" >/dev/null 2>&1; then
  say "no $PYTHON on PATH; install Python 3.11 or newer (apt-get install python3) and run this again"
  exit 1
fi
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  say "$("$PYTHON" --version 2>&1) is too old; rulecoref needs Python 3.11 or newer"
  exit 1
fi

apt_install() {
  local sudo=""
  if [ "$(id -u)" != "0" ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      say "need root to install Debian packages ($*); run: apt-get install $*"
      exit 1
    fi
    sudo="sudo"
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "no apt-get here; install the equivalent of Debian's $* yourself and run this again"
    exit 1
  fi
  say "installing Debian packages: $*"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if [ ! -f /usr/share/wordnet/data.noun ] && [ -z "${RULECOREF_WORDNET:-}" ]; then
  apt_install wordnet-base
fi

# A working environment has a python that can run pip; anything else (a half-made folder from a
# run without python3-venv) is made again.
if ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
  rm -rf "$VENV"
  if ! "$PYTHON" -m venv "$VENV" >/dev/null 2>&1; then
    rm -rf "$VENV"
    apt_install python3-venv
    "$PYTHON" -m venv "$VENV"
  fi
fi

say "installing rulecoref[all] into $VENV"
# wheel first: pyspark ships only a source archive, which older pips build by the deprecated
# 'setup.py install' route unless wheel is already present
"$VENV/bin/python" -m pip install -q --disable-pip-version-check wheel
"$VENV/bin/python" -m pip install -q --disable-pip-version-check -e ".[all]"
say "done: $("$VENV/bin/rulecoref" --version) in $VENV (activate with: . $VENV/bin/activate)"
