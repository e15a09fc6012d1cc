"""Run the result-folder corpus (``corpus_results.py``) and print pass/fail counts by class.

``python tests/hostile/results_driver.py [--code DIR] [-k TEXT] [--jsonl FILE]``: each case
runs in its own temporary folder (the working directory) against the fltheory found in ``DIR``
(default: this checkout; e.g. an older commit's tree for the counts before a change), its child
processes too. A failing case prints its reason; the last lines are the counts by class.
"""

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=HERE.parents[1], help="fltheory's tree")
    parser.add_argument("-k", default="", help="only the cases whose name contains this")
    parser.add_argument("--jsonl", type=Path, help="also write one JSON line per case here")
    args = parser.parse_args()
    code = str(args.code.resolve())
    sys.path[:0] = [code, str(HERE)]
    os.environ["FLTHEORY_CODE"] = code
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import corpus_results  # the corpus, from this folder

    import fltheory

    print(f"fltheory from {Path(fltheory.__file__).parent}", flush=True)
    passed: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    records = []
    here = os.getcwd()
    for case in corpus_results.cases():
        if args.k not in case.name:
            continue
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)
            try:
                reason = case.run(Path(tmp))
            except Exception as exc:  # the case itself broke: a failure, with where
                where = traceback.extract_tb(exc.__traceback__)[-1]
                reason = f"case raised {type(exc).__name__}: {exc} (line {where.lineno})"
            finally:
                os.chdir(here)
        seconds = time.perf_counter() - start
        (failed if reason else passed)[case.klass] += 1
        mark = "FAIL" if reason else "pass"
        print(f"{mark} class {case.klass} {case.name} ({seconds:.1f} s)"
              + (f": {reason}" if reason else ""), flush=True)  # fmt: skip
        records.append({"class": case.klass, "name": case.name, "passed": not reason,
                        "reason": reason, "seconds": round(seconds, 2)})  # fmt: skip
    if args.jsonl:
        with contextlib.suppress(OSError):
            args.jsonl.write_text("".join(json.dumps(r) + "\n" for r in records))
    print()
    for klass, title in corpus_results.CLASSES.items():
        total = passed[klass] + failed[klass]
        print(f"class {klass} ({title}): {passed[klass]}/{total} pass, {failed[klass]} fail")
    print(f"all: {sum(passed.values())}/{len(records)} pass")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
