#!/usr/bin/env python3
"""The Assay analysis pipeline written plainly with pandas + SciPy, for the benchmark
(`cargo bench -p app --features ssr --bench pipeline`, which runs this script on the same file).

Usage: pipeline_pandas.py JUDGMENTS.tsv RESULT.json

Input: the Graham/MTurk judgment file (space-separated header `HITId WorkerId Input.src
Input.trg Input.item hit sys_id rid type sid score time`, tab-separated rows), one task and one
language pair. Computes what `app::analysis::analyse` computes with bootstrap off:

1. per worker, (original, bad reference) pairs within a HIT (the SYSTEM item of the same system
   and segment), paired one-sided t test H1: original > bad (scipy.stats.ttest_rel); a worker
   passes with at least 5 pairs and p < 0.05, and only workers who pass are kept;
2. z = (x - mean) / sd per kept worker over all their items (sample sd; sd = 0 cannot be
   standardised and is dropped);
3. system means of raw and z over SYSTEM and REPEAT items;
4. one-sided Mann-Whitney U (scipy.stats.mannwhitneyu, alternative='greater', continuity
   correction) of the z-scores for every ordered pair of systems;
5. wins (p < 0.05) and WMT clusters: walking down the order by mean z, a boundary after
   position i when the smallest win count so far equals the number of systems below.

Writes the results and its own timings and peak memory (resource.getrusage) as JSON.
"""
import json
import resource
import sys
import time

import numpy as np
import pandas as pd
from scipy import stats

COLUMNS = ["HITId", "WorkerId", "src", "trg", "item", "hit", "sys_id", "rid", "type", "sid", "score", "time"]
ALPHA = 0.05
MIN_PAIRS = 5


def main(path, out):
    t0 = time.perf_counter()
    df = pd.read_csv(
        path, sep="\t", header=None, skiprows=1, names=COLUMNS,
        dtype={"HITId": str, "WorkerId": str, "sys_id": str, "sid": str, "type": str, "score": float},
    )
    t_read = time.perf_counter()

    # 1. Reliability: pair each BAD_REF with its SYSTEM original in the same HIT.
    key = ["WorkerId", "HITId", "sys_id", "sid"]
    originals = df[df["type"] == "SYSTEM"].drop_duplicates(key)[key + ["score"]]
    bad = df[df["type"] == "BAD_REF"][key + ["score"]]
    pairs = bad.merge(originals, on=key, suffixes=("_bad", "_orig"))
    passed = set()
    for worker, g in pairs.groupby("WorkerId", sort=False):
        if len(g) < MIN_PAIRS:
            continue
        p = stats.ttest_rel(g["score_orig"].to_numpy(), g["score_bad"].to_numpy(), alternative="greater").pvalue
        if p < ALPHA:  # NaN (no variance) is not a pass
            passed.add(worker)
    workers = set(df["WorkerId"].unique())
    excluded = sorted(workers - passed)

    # 2. z-scores per kept worker.
    kept = df[df["WorkerId"].isin(passed)]
    g = kept.groupby("WorkerId")["score"]
    mu = g.transform("mean")
    sd = g.transform("std")
    kept = kept.assign(z=(kept["score"] - mu) / sd)
    kept = kept[(sd > 0) & np.isfinite(kept["z"])]

    # 3. System scores.
    scored = kept[kept["type"].isin(["SYSTEM", "REPEAT"])]
    means = scored.groupby("sys_id").agg(raw=("score", "mean"), z=("z", "mean"), n=("z", "size"))
    means = means.reset_index().sort_values(["z", "raw"], ascending=[False, False])
    order = means["sys_id"].tolist()

    # 4. Mann-Whitney for every ordered pair.
    samples = {s: grp.to_numpy() for s, grp in scored.groupby("sys_id")["z"]}
    k = len(order)
    p = [[None] * k for _ in range(k)]
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            if i != j:
                p[i][j] = float(stats.mannwhitneyu(samples[a], samples[b], alternative="greater").pvalue)

    # 5. Wins and clusters.
    wins = [sum(1 for j in range(k) if j != i and p[i][j] < ALPHA) for i in range(k)]
    clusters, start, min_wins = [], 0, None
    for i in range(k):
        min_wins = wins[i] if min_wins is None else min(min_wins, wins[i])
        if i == k - 1 or min_wins == k - 1 - i:
            clusters.append([start + 1, i + 1])
            start = i + 1
    t_end = time.perf_counter()

    result = {
        "read_seconds": t_read - t0,
        "pipeline_seconds": t_end - t_read,
        "total_seconds": t_end - t0,
        "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "judgments": int(len(df)),
        "excluded": excluded,
        "order": order,
        "system_z": {r.sys_id: float(r.z) for r in means.itertuples()},
        "system_raw": {r.sys_id: float(r.raw) for r in means.itertuples()},
        "p": p,
        "wins": wins,
        "clusters": clusters,
        "versions": {"python": sys.version.split()[0], "pandas": pd.__version__, "scipy": __import__("scipy").__version__, "numpy": np.__version__},
    }
    with open(out, "w") as f:
        json.dump(result, f)
    print(f"pandas+SciPy: read {result['read_seconds']:.2f} s, pipeline {result['pipeline_seconds']:.2f} s, "
          f"total {result['total_seconds']:.2f} s, peak RSS {result['peak_rss_kb'] / 1024:.0f} MiB")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
