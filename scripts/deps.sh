#!/usr/bin/env bash
# deps.sh — make sure the Debian packages arenabench builds with are present.
# As root it installs what is missing (apt-get); otherwise it names the exact
# command to run and exits 1. Usage: scripts/deps.sh [--test]  (--test adds Criterion)
# Optional and deliberately not installed here: minizinc (the planner `minizinc`;
# tests/test_minizinc.c skips without it). Its Gecode pulls in Qt 5's GUI
# libraries (libgecodegist49), too heavy for every fresh CI install:
# apt-get install minizinc where the cross-check is wanted.
set -euo pipefail

packages=(gcc make cmake pkg-config libglpk-dev libsqlite3-dev libyaml-dev)
[ "${1:-}" = "--test" ] && packages+=(libcriterion-dev)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    echo "deps.sh: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
    echo "deps.sh: missing Debian packages: ${missing[*]}" >&2
    echo "deps.sh: install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
