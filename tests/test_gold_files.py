"""The development set's gold is well formed (tests/dev/check_gold.py): a quote that moved or a range that no
longer parses would make every figure measured against it wrong without a word."""

from tests.dev.check_gold import UNSEEN_SETS, check


def test_every_set_of_the_development_set_and_its_gold_check():
    c = check()
    assert c.problems == []
    assert len(c.home) >= 12  # the six accounts of one tradition and the sets of other kinds
    assert UNSEEN_SETS and set(UNSEEN_SETS) <= set(c.home.values())  # the unseen sets are checked too


def test_the_seeds_rows_join_only_cells_the_gold_says_tell_one_moment(seeds_edition):
    """``row_precision`` counts what the rows join that they should not (``row_pairs`` never sees it): on the seeds,
    every pair of cells of two families in one row that both hold gold words holds words of one gold group."""
    from tests.gold import SEEDS_GOLD, row_precision

    true, joined = row_precision(seeds_edition, SEEDS_GOLD / "rows.yaml")
    assert joined >= 20 and true == joined
