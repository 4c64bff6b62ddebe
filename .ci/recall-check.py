#!/usr/bin/env python3
"""Runs the shared recall cases' check.py and holds the line: every case passes except those
named in .ci/recall-known-gaps, and each of those still fails (a case that starts passing must
be taken off the list).

usage: recall-check.py CHECK_PY KBLINT
"""
import os
import re
import subprocess
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    check, kblint = argv[1], argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "recall-known-gaps"), encoding="utf-8") as handle:
        gaps = {line.strip() for line in handle if line.strip() and not line.startswith("#")}
    run = subprocess.run([sys.executable, check, kblint], capture_output=True, text=True)
    passed, failed = set(), {}
    for line in run.stdout.splitlines():
        match = re.match(r"(PASS|FAIL) (\S+?):?(?: (.*))?$", line)
        if not match:
            continue
        if match.group(1) == "PASS":
            passed.add(match.group(2))
        else:
            failed[match.group(2)] = match.group(3) or ""
    if not passed and not failed:
        print(f"check.py reported no case (exit {run.returncode}):\n{run.stdout}{run.stderr}", file=sys.stderr)
        return 1
    regressions = {name: detail for name, detail in failed.items() if name not in gaps}
    closed = sorted(gaps & passed)
    for name, detail in sorted(failed.items()):
        print(f"{'known gap' if name in gaps else 'FAIL'} {name}: {detail}")
    print(f"recall cases passing: {len(passed)} of {len(passed) + len(failed)}")
    for name in closed:
        print(f"now passing, take it off .ci/recall-known-gaps: {name}", file=sys.stderr)
    for name in sorted(regressions):
        print(f"regression: {name} is not a known gap", file=sys.stderr)
    unknown = sorted(gaps - passed - set(failed))
    for name in unknown:
        print(f".ci/recall-known-gaps names no case {name}", file=sys.stderr)
    return 1 if regressions or closed or unknown else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
