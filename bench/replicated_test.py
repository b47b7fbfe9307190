"""Tests of bench/replicated.py, the statistics every comparison script in
bench/ shares (tests/bench_replicated.rs runs them: `python3
bench/replicated_test.py`). Not executable, so bench/smoke-all does not
take it for a script."""

import math
import os
import statistics
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from replicated import (Factor, Ratio, Side, alternate, flagged_note, max_variance, one_replicate, pinned,  # noqa: E402
                        summary, t975, tally)


def welch_interval(ours, theirs):
    """The interval written out for two sides: ln figures' standard errors s·√c_r,
    Welch-Satterthwaite degrees of freedom, t at 97.5%."""
    def se(values):
        return statistics.stdev([math.log(v) for v in values]) * math.sqrt(max_variance(len(values)))

    sa, sb = se(ours), se(theirs)
    df = (sa ** 2 + sb ** 2) ** 2 / (sa ** 4 / (len(ours) - 1) + sb ** 4 / (len(theirs) - 1))
    half = t975(df) * math.hypot(sa, sb)
    value = max(ours) / max(theirs)
    return value * math.exp(-half), value * math.exp(half)


class Constants(unittest.TestCase):
    def test_the_variance_of_the_largest_of_r_normals_is_the_tabled_one(self):
        # crates/core/src/special.rs: 0.5595 for r = 3, 0.4475 for r = 5; one sample: 1.
        self.assertAlmostEqual(max_variance(1), 1.0, places=3)
        self.assertAlmostEqual(max_variance(3), 0.5595, places=3)
        self.assertAlmostEqual(max_variance(5), 0.4475, places=3)

    def test_t_quantiles_are_the_table_and_join_the_expansion(self):
        self.assertEqual(t975(1), 12.706)
        self.assertEqual(t975(4), 2.776)
        self.assertAlmostEqual(t975(10), 2.228, places=3)
        self.assertAlmostEqual(t975(30), 2.042, places=3)
        self.assertTrue(t975(2) > t975(2.5) > t975(3))


class Ratios(unittest.TestCase):
    def test_the_figure_is_the_fastest_replicate_of_each_side(self):
        r = Ratio([90, 100, 95], [50, 40, 45], 0.95, 1.05)
        self.assertEqual(r.ours.figure(), 100)
        self.assertEqual(r.theirs.figure(), 50)
        self.assertEqual(r.value, 2.0)

    def test_the_interval_is_welchs_on_the_ln_figures(self):
        ours, theirs = [100, 97, 99, 98], [101, 96, 100]
        r = Ratio(ours, theirs, 0.95, 1.05)
        for got, want in zip(r.interval, welch_interval(ours, theirs)):
            self.assertAlmostEqual(got, want, places=12)

    def test_a_row_is_judged_only_where_its_interval_can_tell(self):
        self.assertEqual(Ratio([100, 100.1, 100.2], [100, 100.1, 99.9], 0.95, 1.05).verdict(), "ok")
        self.assertEqual(Ratio([130, 130.1, 130.2], [100, 100.1, 99.9], 0.95, 1.05).verdict(), "MISSED")
        self.assertEqual(Ratio([70, 70.1, 70.2], [100, 100.1, 99.9], 0.95, 1.05).verdict(), "MISSED")
        wide = Ratio([104, 90, 80], [100, 95, 85], 0.95, 1.05)
        self.assertLess(wide.interval[0], 1.05)
        self.assertGreater(wide.interval[1], 1.05)
        self.assertEqual(wide.verdict(), "unjudged")
        self.assertIn("unjudged", wide.text())

    def test_one_replicate_a_side_is_never_judged(self):
        r = Ratio([100], [100, 101], 0.95, 1.05)
        self.assertIsNone(r.interval)
        self.assertEqual(r.verdict(), "unjudged")
        self.assertIn("one replicate a side", r.text())

    def test_a_band_open_above_misses_only_below(self):
        self.assertEqual(Ratio([300, 300.1], [100, 100.1], 0.97, float("inf")).verdict(), "ok")
        self.assertEqual(Ratio([50, 50.1], [100, 100.1], 0.97, float("inf")).verdict(), "MISSED")

    def test_a_smoke_run_prints_no_verdict(self):
        r = Ratio([130, 130.1, 130.2], [100, 100.1, 99.9], 0.95, 1.05)
        self.assertTrue(r.text().endswith("MISSED"))
        self.assertTrue(r.text(judge=False).endswith("not judged"))
        self.assertNotIn("MISSED", r.text(judge=False))


class Factors(unittest.TestCase):
    def test_a_factor_divides_the_fastest_replicates(self):
        f = Factor([10, 12, 11], [4, 3, 3.5])
        self.assertEqual(f.figure(), 12 / 4)

    def test_a_ratio_of_factors_adds_the_spread_of_all_four(self):
        on, off = [10.0, 10.4, 10.2], [5.0, 5.1, 4.9]
        steady = [7.0, 7.0, 7.0]
        # With both off sides steady, the interval is that of the on sides alone, scaled.
        alone = Ratio(on, on[::-1], 0.95, 1.05)
        both = Ratio(Factor(on, steady), Factor(on[::-1], steady), 0.95, 1.05)
        self.assertEqual(both.value, alone.value)
        for got, want in zip(both.interval, alone.interval):
            self.assertAlmostEqual(got, want, places=12)
        # A spread on an off side widens it.
        wider = Ratio(Factor(on, off), Factor(on[::-1], steady), 0.95, 1.05)
        self.assertGreater(wider.interval[1] / wider.interval[0], both.interval[1] / both.interval[0])

    def test_sides_are_taken_as_given_or_from_lists(self):
        side = Side([3, 4])
        self.assertIs(Ratio(side, [2, 2], 0, 10).ours, side)


class Runs(unittest.TestCase):
    def test_every_replicate_has_every_side_once_in_a_random_order(self):
        orders = set()
        for seed in range(20):
            order = alternate(4, ["a", "b", "c"], seed)
            self.assertEqual(len(order), 12)
            for r in range(4):
                self.assertEqual(sorted(s for q, s in order if q == r), ["a", "b", "c"])
            orders.add(tuple(s for _, s in order[:3]))
        self.assertGreater(len(orders), 1)

    def test_both_tools_are_pinned(self):
        self.assertEqual(pinned(1, ["openssl", "speed"]), ["taskset", "-c", "1", "openssl", "speed"])
        self.assertEqual(pinned("0,1", ["x"]), ["taskset", "-c", "0,1", "x"])
        self.assertEqual(one_replicate(3), ["--replicates", "1", "--cpu", "3"])

    def test_the_tally_counts_judged_rows_and_names_the_unjudged(self):
        line = tally(["ok", "MISSED", "unjudged", "ok"])
        self.assertTrue(line.startswith("2 of 3 judged rows within target (1 unjudged"), line)

    def test_the_summary_gives_the_range_and_judges_only_outside_a_smoke_run(self):
        rows = [Ratio([100, 100.1, 100.2], [100, 100.1, 99.9], 0.95, 1.05),
                Ratio([130, 130.1, 130.2], [100, 100.1, 99.9], 0.95, 1.05)]
        line = summary(rows)
        self.assertTrue(line.startswith("ratio range 1.001-1.301; 1 of 2 judged rows within target (0 unjudged"), line)
        self.assertEqual(summary(rows, judge=False), "ratio range 1.001-1.301; not judged (smoke run)")

    def test_a_flag_is_named_only_where_a_replicate_had_one(self):
        self.assertEqual(flagged_note(0, 5), "")
        self.assertEqual(flagged_note(2, 5), " (~ in 2 of 5 cryptobench replicates)")


if __name__ == "__main__":
    unittest.main()
