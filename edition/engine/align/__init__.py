"""Align one episode's segments into rows, witness by witness.

The base witness's segments seed the rows; every other witness is then
aligned to the rows built so far by a monotone dynamic programme (several of
its segments may join one row; a segment with no counterpart gets a row of its
own, placed after its predecessor's). Each witness therefore keeps its own
order.

Only a segment's similarity to a row above ``match`` (a parameter) can make it join that
row, so everything is sparse: an inverted index of the rarer character grams
finds, for each segment, the few texts already in rows that can reach
``match`` with it (see ``Vec``; the same folded text is compared once), and the
programme runs over those candidate pairs only. While no segment has more than
``candidates`` (a parameter) of them its result is the dense programme's, ties included. The cost
grows with the number of candidate pairs (segments × their true counterparts), not
with segments × rows.

One module per part: ``search`` (candidates), ``likeness`` (how like a row), ``dp`` (the two programmes),
``drafts`` (rows in the making), ``rows`` (an episode's alignment), ``regroup`` (the editor's ``rows``).
"""

from .drafts import AlignParams
from .regroup import beside_base, regroup
from .rows import align, sentences
from .search import Names

__all__ = ["AlignParams", "Names", "align", "beside_base", "regroup", "sentences"]
