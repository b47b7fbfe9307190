"""Replicate-level figures and ratios for the scripts in bench/ (imported by
them, not run on its own).

A script that holds cryptobench against another tool measures both sides in
replicates: fresh processes, alternating replicate by replicate (A B, B A,
…, in a random order), both pinned to the same CPU. Each side's figure is
the same estimator cryptobench uses for its own cells
(crates/core/src/replicates.rs): the fastest replicate, since a neighbour
only ever slows a loop down (J. Chen and J. Revels, "Robust benchmarking in
noisy environments", 2016). The ratio of the two figures gets an interval
from the replicates' spread on each side (Welch's t on ln figures, each
side's standard error that of the largest of r normal samples), and a row
is judged only where that interval can tell: inside the target band "ok",
outside it "MISSED", across one of its edges "unjudged" with the interval.
A speed-up factor (an audit's feature on over off) is a Factor: the fastest
replicate of each configuration, divided, its interval from the spread of
both.
"""

import math
import random
import statistics

# Student's t, 97.5% quantile, for 1-10 degrees of freedom (NIST/SEMATECH
# e-Handbook of Statistical Methods, §1.3.6.7.2, table of t critical values).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}
Z975 = statistics.NormalDist().inv_cdf(0.975)


def t975(df):
    """The 97.5% quantile of Student's t: the table up to 10 degrees of freedom (linear in 1/df
    between its entries), beyond it the Cornish-Fisher expansion of Abramowitz and Stegun 26.7.5."""
    if df >= 10:
        z = Z975
        return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
                + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))
    lo = max(1, math.floor(df))
    hi = min(10, lo + 1)
    if lo == hi or df == lo:
        return T975[lo]
    w = (1 / lo - 1 / df) / (1 / lo - 1 / hi)
    return T975[lo] + w * (T975[hi] - T975[lo])


def max_variance(r):
    """Var(largest of r standard normal samples), by numerical integration of r·Φ^(r-1)·φ
    (crates/core/src/special.rs does the same: 0.5595 for r = 3, 0.4475 for r = 5)."""
    nd = statistics.NormalDist()
    step, m1, m2 = 1 / 64, 0.0, 0.0
    for i in range(int(16 / step) + 1):
        x = -8 + i * step
        d = r * nd.cdf(x) ** (r - 1) * nd.pdf(x) * step
        m1 += x * d
        m2 += x * x * d
    return m2 - m1 * m1


class Side:
    """One tool's replicates of one row: their figures (throughputs or operations per second)."""

    def __init__(self, values):
        self.values = [v for v in values if v and v > 0]

    def figure(self):
        return max(self.values)

    def log_se(self):
        """Standard error of ln(figure), with its degrees of freedom; None with fewer than 2 replicates."""
        r = len(self.values)
        if r < 2:
            return None
        logs = [math.log(v) for v in self.values]
        return statistics.stdev(logs) * math.sqrt(max_variance(r)), r - 1

    def sides(self):
        return [self]


class Factor:
    """One tool's speed-up factor: the fastest replicate with a feature on over the fastest with it
    off (each a Side), as an audit's verdict divides its configurations' figures."""

    def __init__(self, on, off):
        self.on, self.off = as_figure(on), as_figure(off)

    def figure(self):
        return self.on.figure() / self.off.figure()

    def sides(self):
        return self.on.sides() + self.off.sides()


def as_figure(x):
    """A Side or Factor as it is; a list of replicate figures as a Side."""
    return x if isinstance(x, (Side, Factor)) else Side(x)


class Ratio:
    """ours/theirs with its 95% interval, judged against the band [lo, hi]. Each of ours and
    theirs is a list of replicate figures, a Side or a Factor; the interval adds the variances of
    the ln figures of every Side in it, taken as independent (Welch-Satterthwaite degrees of
    freedom)."""

    def __init__(self, ours, theirs, lo, hi):
        self.ours, self.theirs = as_figure(ours), as_figure(theirs)
        self.lo, self.hi = lo, hi
        self.value = self.ours.figure() / self.theirs.figure()
        parts = [s.log_se() for s in self.ours.sides() + self.theirs.sides()]
        if any(p is None for p in parts):
            self.interval = None
        else:
            var = sum(se ** 2 for se, _ in parts)
            # Welch-Satterthwaite; sides alike in spread give the sum of their degrees of freedom.
            df = var ** 2 / (sum(se ** 4 / d for se, d in parts if se) or 1)
            half = t975(max(df, 1)) * math.sqrt(var)
            self.interval = (self.value * math.exp(-half), self.value * math.exp(half))

    def verdict(self):
        """"ok", "MISSED", or "unjudged" where the interval reaches across an edge of the band."""
        if self.interval is None:
            return "unjudged"
        a, b = self.interval
        if self.lo <= a and b <= self.hi:
            return "ok"
        if b < self.lo or a > self.hi:
            return "MISSED"
        return "unjudged"

    def text(self, judge=True):
        """"1.012 (0.991-1.034) ok" and the like; "not judged" in place of the verdict without `judge`."""
        iv = f" ({self.interval[0]:.3f}-{self.interval[1]:.3f})" if self.interval else " (one replicate a side)"
        return f"{self.value:.3f}{iv} {self.verdict() if judge else 'not judged'}"


def alternate(replicates, sides, seed=None):
    """The order of a run: per replicate every side once, the sides in a random order each time
    (A B, B A, …). Returns [(replicate, side), …]."""
    rng = random.Random(seed)
    order = []
    for r in range(replicates):
        s = list(sides)
        rng.shuffle(s)
        order.extend((r, x) for x in s)
    return order


def pinned(cpu, argv):
    """`argv` run on one logical CPU (`taskset -c CPU`): the other tool's side of a replicate."""
    return ["taskset", "-c", str(cpu)] + list(argv)


def one_replicate(cpu):
    """cryptobench's flags for its side of a replicate: one worker, pinned to `cpu`."""
    return ["--replicates", "1", "--cpu", str(cpu)]


def flagged_note(flagged, replicates):
    """" (~ in 2 of 5 cryptobench replicates)" where cryptobench flagged the cell in some, else ""."""
    return f" (~ in {flagged} of {replicates} cryptobench replicates)" if flagged else ""


def summary(ratios, judge=True):
    """"ratio range 0.981-1.034; " and the tally of the rows' verdicts, or that a smoke run judges nothing."""
    values = [r.value for r in ratios]
    judged = tally([r.verdict() for r in ratios]) if judge else "not judged (smoke run)"
    return f"ratio range {min(values):.3f}-{max(values):.3f}; {judged}"


def tally(verdicts):
    """"7 of 9 judged rows ok (3 unjudged)"."""
    judged = [v for v in verdicts if v != "unjudged"]
    ok = sum(1 for v in judged if v == "ok")
    return f"{ok} of {len(judged)} judged rows within target ({len(verdicts) - len(judged)} unjudged: their interval reaches across an edge of the band)"
