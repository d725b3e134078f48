"""Dependency parses from spaCy: a pipeline the user names (``--parser MODEL``), or a parsed ``Doc``.

Issue 35. rulecoref never ships or downloads a model: ``--parser`` (or the rule-file setting
``attributes: {syntax: {parser: ...}}``) names any installed spaCy pipeline, by package name
(``en_core_web_sm``) or folder. It runs over rulecoref's own tokens and sentences, one spaCy
``Doc`` per line built with ``Doc(vocab, words=..., spaces=...)`` whose sentence is fixed, so a
concept's tokens are the parse's tokens and no sentence crosses a line. Only the components that
tag and parse run (no NER, no lemmatizer). spaCy is imported here only when a parser is loaded:
without one, ``rulecoref`` starts and runs exactly as before.

A spaCy ``Doc`` that was parsed already (the spaCy component, ``spacy_component.py``) gives its
own parse, aligned to rulecoref's tokens by characters (``parse_of_doc``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from .document import Document
from .errors import ResourceError, diagnostic
from .extras import require
from .syntax import Parse

#: the factories whose components a parse needs: shared embeddings, tags, the parser itself and
#: the rules that map tags to coarse parts of speech
PARSE_FACTORIES = frozenset({"tok2vec", "transformer", "curated_transformer", "tagger", "morphologizer",
                             "parser", "beam_parser", "attribute_ruler"})
PARSER_FACTORIES = frozenset({"parser", "beam_parser"})


class SpacyParser:
    """A loaded spaCy pipeline that parses ``Document`` s: ``parser(doc) -> Parse``.

    Loaded once per pipeline (``engine.Pipeline``), at start-up, so a missing model stops the run
    before any document (RC305, RC306); forked workers share the loaded copy.
    """

    def __init__(self, name: str, where: str = "--parser"):
        require("spacy", f"{where} (a dependency parse)")
        import spacy

        self.name = name
        try:
            nlp = spacy.load(name)
        except (OSError, ImportError, ValueError) as exc:
            raise ResourceError(diagnostic("RC305", model=name, where=where, detail=_first_line(exc))) from None
        factories = {n: nlp.get_pipe_meta(n).factory for n in nlp.pipe_names}
        if not PARSER_FACTORIES & set(factories.values()):
            raise ResourceError(diagnostic("RC306", model=name, where=where,
                                           components=", ".join(nlp.pipe_names) or "none"))
        self.vocab = nlp.vocab
        self.components = [(n, nlp.get_pipe(n)) for n in nlp.pipe_names if factories[n] in PARSE_FACTORIES]

    def __call__(self, doc: Document) -> Parse:
        from spacy.tokens import Doc

        lines = [toks for toks in doc.lines if toks]
        docs: Any = [Doc(self.vocab, words=toks, spaces=[True] * len(toks),
                         sent_starts=[True] + [False] * (len(toks) - 1)) for toks in lines]
        for _, proc in self.components:
            docs = proc.pipe(docs)
        heads: list[int] = []
        deps: list[str] = []
        tags: list[str] = []
        for sdoc in docs:
            base = len(heads)
            for tok in sdoc:
                heads.append(base + tok.head.i)
                deps.append(tok.dep_)
                tags.append(tok.pos_)
        return Parse(tuple(heads), tuple(deps), tuple(tags), source=self.name)


def parse_of_doc(sdoc: Any, offsets: Sequence[Sequence[tuple[int, int]]], source: str = "spaCy Doc") -> Parse | None:
    """The parse of a spaCy ``Doc`` on rulecoref's tokens (``offsets``: each line's token character
    spans in ``sdoc.text``), or None when the Doc has no dependency parse. A rulecoref token that
    spans several spaCy tokens takes their root's head and label; one inside a spaCy token takes
    that token's."""
    if not sdoc.has_annotation("DEP"):
        return None
    spans = [s for line in offsets for s in line]
    starts = [s for s, _ in spans]

    def ours(char: int) -> int:  # the rulecoref token holding a character (the one before, in a gap)
        return max(bisect_right(starts, char) - 1, 0)

    heads: list[int] = []
    deps: list[str] = []
    tags: list[str] = []
    for k, (a, b) in enumerate(spans):
        span = sdoc.char_span(a, b, alignment_mode="expand")
        tok = span.root if span is not None and len(span) else sdoc[min(len(sdoc) - 1, _spacy_token(sdoc, a))]
        h = ours(tok.head.idx)
        heads.append(k if tok.head.i == tok.i else h)
        deps.append(tok.dep_)
        tags.append(tok.pos_)
    return Parse(tuple(heads), tuple(deps), tuple(tags), source=source)


def _spacy_token(sdoc: Any, char: int) -> int:
    """The index of the spaCy token at or before character ``char``."""
    return max(bisect_right([t.idx for t in sdoc], char) - 1, 0)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
