"""The ``rulecoref`` spaCy component: link the concepts a spaCy pipeline found, with an unchanged rule file.

Clinical pipelines find concepts with spaCy (medspaCy's target matcher, scispaCy's NER, an entity
ruler); this component adds coreference after them::

    nlp.add_pipe("rulecoref", config={"label_map": {"PROBLEM": "problem"}})

* **Concepts in** come from ``doc.ents`` or the span group ``spans_key``; ``label_map`` turns spaCy
  labels into rule-file types (a label it does not name is used lowercased, one it maps to ``""``
  is left out). The pronouns NER never marks ("he", "his", "which") are added by rulecoref's one
  mention finder (``rulecoref.finder``), the same that ``rulecoref resolve``, Spark and the Python
  API run, so one text and its concepts give the same mentions and chains through every door;
  ``find_mentions`` (``auto``, ``on``, ``off``; null: the rule file's ``mentions.find``) decides.
* **The text** is tokenised the way i2b2 text is (``rulecoref.io.text``: sentences end at ". ! ?"
  and line breaks, abbreviations from a word list keep their dot), so the rules see the same
  sentences they see in ``rulecoref resolve``, whatever tokenizer the pipeline uses.
* **Chains out** go to ``doc.spans["coref_clusters_1"]``, ``["coref_clusters_2"]``, ... (the
  convention of spaCy's experimental coreference component), in text order of their first mention,
  with the chain type in the group's ``attrs["type"]``. Every proposed link, with the pass that made
  it and its evidence, goes to ``doc._.rulecoref_links`` as plain data (token offsets), so docs
  still serialise (``DocBin``, ``nlp.pipe(n_process=...)``).
* **medspaCy's facts**: when ConText or the sectionizer ran, what they say about a concept
  (negated, uncertain or hypothetical, historical, a relative's; its section) replaces what
  rulecoref's own cue lists would say for it (``rulecoref.medspacy_facts``), and a filter's removal
  names the source in its evidence ("negated by ConText"). ``medspacy_facts: false`` ignores them.
* **A dependency parse**: when the pipeline parsed the Doc (a ``parser`` before this component),
  its parse, aligned to rulecoref's tokens, gives the mention attributes their grammatical roles
  (``rulecoref.parsing.parse_of_doc``; docs/parser.md). ``use_parse: false`` ignores it.
* **Resources** load once per component, in its constructor: the rules are compiled and WordNet
  read there, never per document. A copy sent to another process (pickled) builds itself again
  there, once.
"""

from typing import Any

from .extras import require

require("spacy", "the rulecoref spaCy component")

from spacy.language import Language  # noqa: E402
from spacy.tokens import Doc, Span, SpanGroup  # noqa: E402

from .engine import Pipeline  # noqa: E402
from .errors import ResourceError, diagnostic  # noqa: E402
from .io.text import document_from_text  # noqa: E402
from .medspacy_facts import medspacy_facts  # noqa: E402
from .parsing import parse_of_doc  # noqa: E402
from .resources import Resources, named_file  # noqa: E402
from .rules.compiler import compile_rules  # noqa: E402

LINKS_EXTENSION = "rulecoref_links"

DEFAULT_CONFIG: dict[str, Any] = {
    "rules": "i2b2",
    "spans_key": None,
    "label_map": {},
    "find_mentions": None,
    "abbreviations": "resources/lexicons/abbreviations.txt",
    "wordnet": None,
    "chains_prefix": "coref_clusters",
    "medspacy_facts": True,
    "use_parse": True,
}

if not Doc.has_extension(LINKS_EXTENSION):  # spaCy's extension registry: one name per process
    Doc.set_extension(LINKS_EXTENSION, default=None)


class RulecorefComponent:
    """Coreference over a spaCy ``Doc``'s concepts with a rulecoref rule file."""

    def __init__(self, nlp: Language | None, name: str = "rulecoref", *, rules: str = "i2b2",
                 spans_key: str | None = None, label_map: dict[str, str | None] | None = None,
                 find_mentions: str | None = None, abbreviations: str = DEFAULT_CONFIG["abbreviations"],
                 wordnet: str | None = None, chains_prefix: str = "coref_clusters", medspacy_facts: bool = True,
                 use_parse: bool = True,
                 resources: Resources | None = None):
        """Compile the rules and load what they need (WordNet, word lists) once.

        Args:
            resources: share one ``Resources`` (WordNet) between components of a process; by
                default each component has its own.
        """
        self.name = name
        self.settings = {"rules": rules, "spans_key": spans_key, "label_map": dict(label_map or {}),
                         "find_mentions": find_mentions, "abbreviations": abbreviations,
                         "wordnet": wordnet, "chains_prefix": chains_prefix, "medspacy_facts": medspacy_facts,
                         "use_parse": use_parse}
        if not chains_prefix or not isinstance(chains_prefix, str):
            raise ResourceError(diagnostic("RC537", name=name, detail="chains_prefix must be a non-empty string"))
        for key in ("medspacy_facts", "use_parse"):
            if not isinstance(self.settings[key], bool):
                raise ResourceError(diagnostic("RC537", name=name, detail=f"{key} must be true or false"))
        bad = [k for k, v in self.settings["label_map"].items() if not isinstance(v, (str, type(None)))]
        if bad:
            raise ResourceError(diagnostic("RC537", name=name,
                                           detail=f"label_map values must be type names or \"\"; not for {bad}"))
        self.resources = resources or Resources(wordnet_path=wordnet)
        self.pipeline = Pipeline(compile_rules(named_file(rules, "rules", ".yaml")), self.resources,
                                 find_mentions=find_mentions)
        self.abbreviations = self.resources.lexicon(named_file(abbreviations)).words
        self.spans_key = spans_key
        self.label_map = {k: (v or "").strip().lower() for k, v in self.settings["label_map"].items()}
        self.prefix = chains_prefix
        self.read_medspacy = medspacy_facts
        self.use_parse = use_parse

    def __reduce__(self) -> tuple[Any, ...]:
        # Another process (spawned workers, a pickled pipeline) rebuilds from the settings, once.
        return (_rebuild, (self.name, self.settings))

    def concepts(self, doc: Doc) -> dict[tuple[int, int], tuple[Span, str]]:
        """The concept spans of ``doc`` with their rule-file types, by character span (the first
        span of each character span counts; whitespace at a span's edges is not part of it)."""
        source = doc.spans.get(self.spans_key, ()) if self.spans_key else doc.ents
        found: dict[tuple[int, int], tuple[Span, str]] = {}
        for span in source:
            ctype = self.label_map.get(span.label_, span.label_.strip().lower())
            key = _trimmed(span)
            if ctype and key[0] < key[1] and key not in found:
                found[key] = (span, ctype)
        return found

    def __call__(self, doc: Doc) -> Doc:
        concepts = self.concepts(doc)
        spans = [(start, end, ctype) for (start, end), (_, ctype) in concepts.items()]
        text_doc = document_from_text("spacy-doc", doc.text, spans, abbreviations=self.abbreviations)
        by_index = [concepts[text_doc.char_span(c)][0] for c in text_doc.document.concepts]
        if self.read_medspacy:
            text_doc.document.facts = medspacy_facts(doc, by_index)
        if self.use_parse:
            text_doc.document.parse = parse_of_doc(doc, text_doc.offsets, source=f"{self.name}: the Doc's parse")
        res = self.pipeline.resolve(text_doc.document)
        by_index = _spans_of(doc, text_doc, res, by_index)
        for key in [k for k in doc.spans if k.startswith(self.prefix + "_")]:
            del doc.spans[key]
        chains = sorted((sorted(members), ctype) for members, ctype in res.chains())
        for n, (members, ctype) in enumerate(chains, 1):
            key = f"{self.prefix}_{n}"
            doc.spans[key] = SpanGroup(doc, name=key, attrs={"type": ctype}, spans=[by_index[m] for m in members])
        removed = res.removed
        links = []
        for link in res.proposed:
            a, b = by_index[link.a], by_index[link.b]
            entry: dict[str, Any] = {"a": [a.start, a.end], "b": [b.start, b.end], "kept": link.pair in res.kept,
                                     **link.provenance.to_dict()}
            if link.pair in removed:
                entry["removed_by"] = removed[link.pair].by.to_dict()
            links.append(entry)
        doc._.set(LINKS_EXTENSION, links)
        return doc


def _spans_of(doc: Doc, text_doc: Any, res: Any, given: list[Span]) -> list[Span]:
    """The spaCy span of each mention of the resolution: the given concepts' own spans, and for a
    mention the finder added, the tokens of ``doc`` its characters cover."""
    spans: list[Span | None] = [None] * len(res.doc.concepts)
    for k, i in enumerate(res.input_index):
        spans[i] = given[k]
    for c in res.doc.concepts:
        if c.added:
            start, end = text_doc.char_span(c)
            spans[c.index] = doc.char_span(start, end, label=c.type, alignment_mode="expand")
    return spans  # type: ignore[return-value]


def _trimmed(span: Span) -> tuple[int, int]:
    text = span.text
    return span.start_char + len(text) - len(text.lstrip()), span.end_char - len(text) + len(text.rstrip())


def _rebuild(name: str, settings: dict[str, Any]) -> RulecorefComponent:
    return RulecorefComponent(None, name, **settings)


@Language.factory("rulecoref", default_config=DEFAULT_CONFIG)
def make_rulecoref(nlp: Language, name: str, rules: str, spans_key: str | None, label_map: dict[str, str | None],
                   find_mentions: str | None, abbreviations: str, wordnet: str | None,
                   chains_prefix: str, medspacy_facts: bool, use_parse: bool) -> RulecorefComponent:
    """The factory behind ``nlp.add_pipe("rulecoref", config={...})`` (docs/spacy.md)."""
    return RulecorefComponent(nlp, name, rules=rules, spans_key=spans_key, label_map=label_map,
                              find_mentions=find_mentions, abbreviations=abbreviations,
                              wordnet=wordnet, chains_prefix=chains_prefix, medspacy_facts=medspacy_facts,
                              use_parse=use_parse)
