#!/usr/bin/env bash
# Three replicas on one throw-away PostgreSQL behind nginx-light, checked from outside (scripts/fleet.py says
# what). Needs PostgreSQL 15 (initdb, pg_ctl), psql and nginx-light: .ci/run installs them.
# Usage: scripts/fleet.sh [--keep-logs DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product hinge
exec python3 scripts/fleet.py --binary "$(swift build -c release --show-bin-path)/hinge" "$@"
