"""Link-level scores: pairwise links and seed 001's "exact match" links.

Pairwise: every pair of mentions in one entity is a link; R = shared links / key links,
P = shared links / response links (BLANC's coreference half, reported on its own).

Exact links (seed 001, "Results", figure 4): a chain of n mentions in text order contributes the
n - 1 links between CONSECUTIVE mentions. A system link counts as correct only if the same two
mentions are consecutive in a gold chain, so a link that skips a mention of its chain is wrong even
though both mentions corefer ("links that fall in the same chain but skip an antecedent are
considered incorrect"), and singletons contribute nothing. The UHD team used it because it can be
reported per concept type. Example: gold chain A B C; system chain A C -> 0 of 1 system links
correct, 0 of 2 gold links found.

Per type: a gold link has the type of its gold chain. A system link has the type of the gold
entity that holds its LATER mention (the anaphor it resolves), so that the per-type counts add up
to the overall ones; a system link whose later mention is in no gold entity (CoNLL twinless
mention) counts only overall.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from .core import Counts, Mention


def chain_links(entities: Sequence[Sequence[Mention]]) -> list[tuple[Mention, Mention]]:
    """Links between consecutive mentions (text order = sorted span order) of every chain."""
    out = []
    for entity in entities:
        if len(entity) < 2:
            continue
        ordered = sorted(entity)  # type: ignore[type-var]
        out.extend(zip(ordered, ordered[1:]))
    return out


def exact_link_counts(
    key: Sequence[Sequence[Mention]],
    response: Sequence[Sequence[Mention]],
    key_types: Sequence[str] | None = None,
) -> tuple[Counts, dict[str, Counts]]:
    """Overall exact-link counts and, when ``key_types`` is given, counts per gold type."""
    gold = chain_links(key)
    system = chain_links(response)
    gold_set = set(gold)
    correct = [link for link in system if link in gold_set]
    overall = Counts(len(correct), len(gold), len(correct), len(system))
    if key_types is None:
        return overall, {}
    type_of: dict[Mention, str] = {m: t for entity, t in zip(key, key_types) for m in entity}
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # correct, gold, system
    for a, _ in gold:
        tally[type_of[a]][1] += 1
    for a, b in system:
        t = type_of.get(b)
        if t is None:
            continue
        tally[t][2] += 1
        if (a, b) in gold_set:
            tally[t][0] += 1
    return overall, {t: Counts(c, g, c, s) for t, (c, g, s) in tally.items()}

