"""The development set's gold is well formed (tests/dev/check_gold.py): a quote that moved or a range that no
longer parses would make every figure measured against it wrong without a word."""

from tests.dev.check_gold import check


def test_every_set_of_the_development_set_and_its_gold_check():
    c = check()
    assert c.problems == []
    assert len(c.home) >= 12  # the six accounts of one tradition and the sets of other kinds
