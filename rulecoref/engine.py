"""Run compiled passes over a Document and return links with provenance and the chains.

First the mention finder (``finder.py``) adds the pronouns an NER tool leaves out, when the rule
file and the document call for it (``res.doc`` is then a new Document). The engine makes the document's mention table (``mentions.py``), whose columns the passes compute
on first use, then runs the passes in rule-file order. A keyed pass (``match``) declares blocking keys and
a pair test and the engine walks its candidates (``candidates.py``); a positional pass proposes
pairs itself. The engine drops pairs a pass's YAML type scope forbids and records a Provenance
for the rest. A filter removes kept links and the removal
is recorded too, so ``Resolution.explain(i, j)`` can say why two mentions were (not) linked.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .attributes import ATTRIBUTES, MentionSettings, UmlsStrings, closure
from .candidates import search
from .chains import chain_types
from .decoders import Decoder, UnionFindDecoder, get_decoder
from .document import Document, Link, Provenance, Removal, pair_key
from .errors import ResourceError, diagnostic
from .finder import MODES, MentionFinder
from .mentions import MentionTable
from .passes import Context, Pass, get_kind
from .plan import Step, plan
from .resources import Resources
from .rules.compiler import RuleSet, compile_rules, default_attributes, default_mentions
from .syntax import Parse


@dataclass
class Resolution:
    """Everything one document's run produced; the basis of output, explain and error analysis.

    ``doc`` is the document the passes saw: the one given to ``Pipeline.resolve``, or a new one with
    the mentions the finder added (``Concept.added``); write and explain ``doc``, not the input."""

    doc: Document
    proposed: list[Link] = field(default_factory=list)
    kept: dict[tuple[int, int], tuple[Link, ...]] = field(default_factory=dict)
    removed: dict[tuple[int, int], Removal] = field(default_factory=dict)
    removed_links: dict[tuple[int, int], tuple[Link, ...]] = field(default_factory=dict)
    clusters: list[list[int]] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    decoder: str = "union_find"
    table: MentionTable | None = None
    #: the index in ``doc`` of each concept of the document given to ``resolve`` (in its order)
    input_index: list[int] = field(default_factory=list)

    def chains(self) -> list[tuple[list[int], str]]:
        """Chains of two or more mentions, with their types."""
        return [(c, t) for c, t in zip(self.clusters, self.types) if len(c) > 1]

    def cluster_of(self) -> dict[int, int]:
        return {m: k for k, c in enumerate(self.clusters) for m in c}

    def explain(self, i: int, j: int) -> dict[str, Any]:
        """Why concepts i and j are (not) in one chain: direct proposals, removals, and the path
        of kept links that joins them (a transitive merge names every link on the way)."""
        doc = self.doc
        pair = pair_key(i, j)
        owner = self.cluster_of()
        same = owner.get(i) == owner.get(j)
        direct = [l.provenance.to_dict() for l in self.proposed if l.pair == pair]
        removal = self.removed.get(pair)
        path: list[dict[str, Any]] = []
        if same and i != j and self.decoder == "union_find":
            adj: dict[int, list[int]] = {}
            for a, b in self.kept:
                adj.setdefault(a, []).append(b)
                adj.setdefault(b, []).append(a)
            prev = {i: i}
            queue = deque([i])
            while queue and j not in prev:
                x = queue.popleft()
                for y in adj.get(x, ()):
                    if y not in prev:
                        prev[y] = x
                        queue.append(y)
            node = j
            while node != i and node in prev:
                a = prev[node]
                links = self.kept[pair_key(a, node)]
                path.append({
                    "from": doc.concepts[a].i2b2(),
                    "to": doc.concepts[node].i2b2(),
                    "by": [l.provenance.to_dict() for l in links],
                })
                node = a
            path.reverse()
        return {
            "a": doc.concepts[i].i2b2() + f'||t="{doc.concepts[i].type}"',
            "b": doc.concepts[j].i2b2() + f'||t="{doc.concepts[j].type}"',
            "same_chain": same,
            "decoder": self.decoder,
            "proposed_by": direct,
            "removed_by": removal.by.to_dict() if removal else None,
            "path": path,
        }

    def to_dict(self) -> dict[str, Any]:
        """Provenance of every link, for ``--provenance`` files and error analysis."""
        c = self.doc.concepts
        return {
            "document": self.doc.name,
            "links": [
                {"a": c[l.a].i2b2(), "b": c[l.b].i2b2(), "kept": l.pair in self.kept, **l.provenance.to_dict()}
                for l in self.proposed
            ],
            "removed": [
                {"a": c[r.pair[0]].i2b2(), "b": c[r.pair[1]].i2b2(), **r.by.to_dict()} for r in self.removed.values()
            ],
            "chains": [
                {"type": t, "mentions": [c[m].i2b2() for m in members]} for members, t in self.chains()
            ],
        }


class Pipeline:
    """A compiled rule set bound to resources: call ``resolve(doc)`` per document."""

    def __init__(self, ruleset: RuleSet, resources: Resources | None = None, *,
                 settings: MentionSettings | None = None, parser: str | None = None,
                 find_mentions: str | None = None, shortcuts: bool = True):
        """``parser``: a spaCy pipeline that parses every document (``--parser``), in place of the rule
        file's ``attributes.syntax.parser``; loaded here, so a missing model stops the run at start-up.
        ``find_mentions``: ``auto``, ``on`` or ``off`` in place of the rule file's ``mentions.find``
        (``--find-mentions``); None keeps the rule file's. ``shortcuts=False`` runs every rule's plain
        test instead of the plan's shortcuts (``plan.py``): the same links, slower; the reference the
        tests compare the plan with."""
        self.ruleset = ruleset
        self.resources = resources or Resources()
        if find_mentions is not None and find_mentions not in MODES:
            raise ResourceError(diagnostic("RC564", value=find_mentions, allowed=", ".join(MODES)))
        #: adds the pronouns NER leaves out, before the passes run (``resolve``)
        self.finder = MentionFinder.build(ruleset.mentions or default_mentions(), self.resources,
                                          ruleset.pronoun_types, find_mentions)
        #: the rule file's attribute settings with their word lists loaded (pipelines of one rule
        #: file may share them: the examples runner builds one pipeline per example)
        self.settings = settings or mention_settings(ruleset, self.resources)
        self.passes: list[Pass] = []
        for cfg in ruleset.passes:
            cls = get_kind(cfg.kind)
            assert cls is not None  # the compiler checked it
            self.passes.append(cls(cfg, self.resources))
        #: the passes as the engine runs them, with the shortcuts that give the plain tests' answers
        self.steps: list[Step] = plan(self.passes, shortcuts)
        if ruleset.decoder is not None:
            dcls = get_decoder(ruleset.decoder.kind)
            assert dcls is not None
            self.decoder: Decoder = dcls(ruleset.decoder.params, self.resources, ruleset)
        else:
            self.decoder = UnionFindDecoder({}, self.resources, ruleset)
        #: the mention attributes the passes and the decoder read, with what they depend on (built per document)
        self.attributes: list[str] = closure({a for p in self.passes for a in p.needed_attributes()}
                                             | set(self.decoder.attributes))
        needs = {n for a in self.attributes for n in ATTRIBUTES[a].needs} | {n for p in self.passes for n in p.needs}
        # Heavy resources load here, once, so a missing WordNet or UMLS database fails at start-up
        # and not mid-batch, and worker processes forked later share the loaded copy.
        self.resources.warm(wordnet="wordnet" in needs)
        self.umls = UmlsStrings(self.settings, ruleset.path) if "umls" in needs else None
        self.parser = load_parser(parser, self.settings.syntax.parser, ruleset.path)

    @classmethod
    def from_file(cls, path: str | Path, resources: Resources | None = None, *, parser: str | None = None,
                  **overrides: Any) -> Pipeline:
        return cls(compile_rules(path, decoder_overrides=overrides or None), resources, parser=parser)

    def table(self, doc: Document, attributes: list[str] | None = None) -> MentionTable:
        """The document's mention table with the attributes the passes read (or ``attributes``)."""
        return MentionTable(doc, self.settings, self.umls).build(self.attributes if attributes is None else attributes)

    def run_passes(self, doc: Document, passes: list[Pass] | None = None) -> Resolution:
        """Run link passes and filters (no decoding): the links with their provenance."""
        res = Resolution(doc=doc)
        if self.parser is not None and doc.parse is None:
            doc.parse = self.parser(doc)
        # columns are computed on first use: an attribute that only a rule admitting no mention
        # of this document reads (the clinical ones in a CRAFT article) is never computed
        res.table = MentionTable(doc, self.settings, self.umls)
        ctx = Context(doc=doc, links=res.kept, table=res.table)
        steps = self.steps if passes is None else [s for p in passes for s in self.steps if s.pass_ is p]
        for step in steps:
            self.run_step(step, res, ctx)
        return res

    def run_step(self, step: Step, res: Resolution, ctx: Context) -> None:
        """One pass over the document: its links kept with their provenance, or a filter's removals."""
        p = step.pass_
        cfg = p.config
        source = (cfg.name, cfg.kind, cfg.rule_file, cfg.line)
        if p.role == "filter":
            for pair, evidence in step.rejections(res.doc, ctx):
                pair = pair_key(*pair)
                links = res.kept.pop(pair, None)
                if links is not None:
                    res.removed_links[pair] = links
                    res.removed[pair] = Removal(pair, Provenance(*source, evidence))
        elif step.search is not None:  # the candidate search keeps to the scope itself
            assert res.table is not None
            self._record(res, source, search(res.table, p.scope, step.search, step.pair_test(res.table)))
        else:
            self._record(res, source, self._scoped(res, p, p.propose(res.doc, ctx)))

    @staticmethod
    def _scoped(res: Resolution, p: Pass, proposals: Any) -> Any:
        """The proposals of a positional pass that its YAML scope allows."""
        types = res.table["type"]
        return ((i, j, ev) for i, j, ev in proposals if i != j and p.scope.allows_types(types[i], types[j]))

    @staticmethod
    def _record(res: Resolution, source: tuple[str, str, str, int], proposals: Any) -> None:
        """Keep the proposals, each with its provenance."""
        kept, proposed = res.kept, res.proposed
        for i, j, evidence in proposals:
            pair = (i, j) if i < j else (j, i)
            link = Link(*pair, Provenance(*source, evidence))
            proposed.append(link)
            links = kept.get(pair)
            kept[pair] = (link,) if links is None else (*links, link)

    def resolve(self, doc: Document) -> Resolution:
        """Find the mentions the document lacks, run the passes, decode: every way in (the command
        line, Spark, the Python API, the spaCy component) resolves a document here."""
        doc, input_index = self.finder.complete(doc)
        res = self.run_passes(doc)
        res.input_index = input_index
        res.decoder = self.decoder.kind
        res.clusters = self.decoder.decode(doc, res)
        res.types = chain_types(doc, res.clusters, self.ruleset.pronoun_types or ("pronoun",))
        return res


def load_parser(given: str | None, setting: str, rule_file: str) -> Callable[[Document], Parse] | None:
    """The dependency parser of a run: ``given`` (``--parser``; "" for none) else the rule file's
    setting; None without one, and then spaCy is never imported."""
    name = setting if given is None else given
    if not name:
        return None
    from .parsing import SpacyParser

    return SpacyParser(name, "--parser" if given is not None else f"{rule_file}: attributes.syntax.parser")


def mention_settings(ruleset: RuleSet, resources: Resources) -> MentionSettings:
    """The attribute settings of a rule file, its word lists loaded."""
    return MentionSettings(ruleset.attributes or default_attributes(), resources,
                           ruleset.pronoun_types or frozenset({"pronoun"}))
