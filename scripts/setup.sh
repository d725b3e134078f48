#!/usr/bin/env bash
# Install everything rulecoref needs on a fresh Debian/Ubuntu machine: WordNet 3.0 from Debian's
# wordnet-base (read offline, never downloaded at run time) and the Python package with its test
# extras. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
if [ ! -f /usr/share/wordnet/data.noun ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends wordnet-base >/dev/null
fi
python3 -m pip install -q -e ".[test,postgres]"
echo "rulecoref setup done: $(python3 -m rulecoref --version)"
