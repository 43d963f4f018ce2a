#!/usr/bin/env bash
# A release gate for CI: python -m ragmath gate, its Markdown report shown, its exit status the step's.
#
#   tools/release_gate_ci.sh BASELINE_RUN CANDIDATE_RUN QRELS [METRIC] [MARGIN]
#
# Exit status: 0 PASS (the release goes on), 1 FAIL (the report says why), 2 bad input or usage.
# METRIC defaults to nDCG@10, MARGIN to 0.02. PYTHON names the interpreter (default: python), GATE_REPORT
# the report's file (default: gate_report.md). On GitHub Actions the report is added to the job's summary.
set -uo pipefail

if [ "$#" -lt 3 ] || [ "$#" -gt 5 ]; then
    echo "usage: $0 BASELINE_RUN CANDIDATE_RUN QRELS [METRIC] [MARGIN]" >&2
    exit 2
fi
baseline=$1 candidate=$2 qrels=$3 metric=${4:-nDCG@10} margin=${5:-0.02}
report=${GATE_REPORT:-gate_report.md}

"${PYTHON:-python}" -m ragmath gate "$baseline" "$candidate" --qrels "$qrels" --metric "$metric" \
    --margin "$margin" --format markdown > "$report"
status=$?
cat "$report"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$report" >> "$GITHUB_STEP_SUMMARY"
fi
exit "$status"
