"""The benchmark stays runnable: the README quotes its medians, and an import it no longer had (jieba, stop 42)
once broke its scale runs unnoticed, since pytest does not collect it."""

from __future__ import annotations

from tests.benchmarks import corpus, measure, summary, table


def test_the_engine_measure_runs_on_a_small_corpus_and_fills_both_tables(tmp_path):
    folder = corpus("2x3k", 0, tmp_path)
    run = measure(folder)
    assert run["chars"] > 4000 and run["rows_n"] > 0
    stages = [k for k in run if k.startswith("stage:")]
    assert {"stage:segment", "stage:rows", "stage:notes", "stage:export"} <= set(stages)
    assert all(run[k] >= 0 for k in stages) and run["total"] >= sum(run[k] for k in stages) * 0.5
    assert "rebuild" in run  # a small corpus is rebuilt as serve would, after one character changed
    big = table({"2x3k": [run]})
    assert "| 2x3k |" in big and "timeout" not in big
    one = summary([], [], [], {"2x3k": [run]}, {})
    assert "engine + export, 2x3k" in one and "not measured" in one  # the export and build were not asked for
