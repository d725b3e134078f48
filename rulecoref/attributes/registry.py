"""The registries of the mention vocabulary: attributes (``@attribute``) and their ``attributes:`` settings.

An attribute is one registered function that computes its column (a value per concept index) of a
document's mention table. A settings group is one frozen dataclass (``@settings_group``) whose
``setting(...)`` fields declare the keys a rule file may give under ``attributes:`` (as
``params.Param``, which the compiler checks) and hold, once a pipeline is built, the typed
values: a ``wordlist`` setting is a loaded ``Lexicon``, a nested mapping its own dataclass. Each
concern module declares its group beside the attributes that read it; ``MentionSettings`` builds
every group once per pipeline, and an attribute reads ``t.settings.<group>.<key>``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import Field, dataclass, field, fields
from itertools import compress
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..params import Param
from ..registry import Registry
from ..resources.lexicon import Lexicon

if TYPE_CHECKING:
    from ..document import Document

T = TypeVar("T")

LEX = "resources/lexicons/"
EMPTY: frozenset[str] = frozenset()  # one empty set for every mention that has none (a new one per mention costs)


# -- attributes ------------------------------------------------------------------------------------
class Table(Protocol):
    """What an attribute reads of a document's mention table (``mentions.MentionTable``): columns by
    name, the document, the settings and the shared per-document facts. A protocol, because
    mentions.py imports this package to compute the columns: naming the class here made a cycle."""

    doc: Document
    settings: MentionSettings
    n: int

    def __getitem__(self, name: str) -> Sequence[Any]: ...

    def per_token(self, name: str, fn: Callable[[str], T]) -> dict[str, T]: ...

    def document_value(self, name: Hashable, fn: Callable[[Table], T]) -> T: ...

    @property
    def words_table(self) -> Table: ...

    @property
    def umls(self) -> Any: ...  # attributes/umls.py's UmlsStrings (that module imports this one)

    @property
    def token_set(self) -> frozenset[str]: ...


@dataclass(frozen=True)
class AttributeSpec:
    """A registered attribute: its column function, what it depends on, and what it means."""

    name: str
    compute: Callable[[Table], list[Any]]
    depends: tuple[str, ...]
    needs: tuple[str, ...]  # resources loaded before documents run: "wordnet", "umls"
    help: str
    #: a pure function of the mention's tokens (and the settings; within its document, the
    #: document's vocabulary may count too, as for ``head_family``), depending only on such
    #: attributes: computed once per distinct token sequence of a document (``mentions.WordsTable``)
    of_words: bool = False
    #: worked out one mention at a time, when a rule asks about that mention (``compute`` returns
    #: a function of the concept index; ``mentions.Cells``): for what most documents need for a
    #: few mentions only (``negation``: for the things an "it" may refer to, in a CRAFT article)
    per_mention: bool = False
    #: a document's facts (``Document.facts``: medspaCy's ConText through the spaCy component) may
    #: supply its value per concept, in place of the computed one
    from_facts: bool = False
    #: how ``rulecoref induce`` may block a match rule on it (``learn/space.py`` derives its keys
    #: from these); ``()``: it is no key for the learner; None: not declared, which
    #: tests/learn/test_space.py refuses
    blocking: tuple[BlockingKey, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class BlockingKey:
    """One way ``rulecoref induce`` may use an attribute as a ``match`` rule's ``key:``, which says
    something a reader recognises ("the same head word", "the same gender").

    ``phrase``: the part of a learned rule's name and the "... share/have ..." phrase of its
    description; ``order``: keys are tried in this order, and of two equally good rules the one
    on the earlier key wins; ``antecedent_key``: the candidates' attribute, when it is another;
    ``direction`` as in a match rule; ``broad``: a category many mentions share (a type, a
    gender), tried only within a few sentences; ``only_windows``: the sentence windows that mean
    something for it (``line``: only 0, the same line).
    """

    phrase: tuple[str, str]
    order: int
    antecedent_key: str | None = None
    direction: str = "backward"
    broad: bool = False
    only_windows: tuple[int, ...] | None = None


#: every attribute, in registration order (the concern modules', in docs/rules.md's order)
ATTRIBUTES: Registry[AttributeSpec] = Registry(
    "attribute", code="RC130", hint="the attributes are listed in docs/rules.md, 'Mention attributes'.")


def attribute(name: str, *, depends: tuple[str, ...] = (), needs: tuple[str, ...] = (), of_words: bool = False,
              per_mention: bool = False, from_facts: bool = False, help: str,
              blocking: tuple[BlockingKey, ...] | None = None):
    """Register a column function under ``name`` (the name rule files use); ``from_facts``: a fact
    supplied with the document (medspaCy's ConText through the spaCy component) replaces the computed
    value; ``blocking``: how ``rulecoref induce`` may block on it (``BlockingKey``; ``()``: never)."""
    if from_facts and of_words:
        raise ValueError(f"attribute {name!r}: a document's fact is a concept's, not its words' (from_facts and "
                         "of_words)")

    def deco(fn: Callable[[Table], Any]) -> Callable[[Table], Any]:
        compute = _with_facts(name, fn, per_mention) if from_facts else fn
        ATTRIBUTES.register(name, AttributeSpec(name, compute, depends, needs, help, of_words, per_mention,
                                                from_facts, blocking))
        return fn

    return deco


def _with_facts(name: str, fn: Callable[[Table], Any], per_mention: bool) -> Callable[[Table], Any]:
    """``fn`` with the document's facts ``name`` in place of the computed values."""

    def compute(t: Table) -> Any:
        column = fn(t)
        if not t.doc.facts:
            return column
        if per_mention:  # ``column`` is the function of a concept index
            def cell(i: int) -> Any:
                fact = t.doc.fact(i, name)
                return fact.value if fact else column(i)

            return cell
        for i, facts in t.doc.facts.items():
            if name in facts:
                column[i] = facts[name].value
        return column

    return compute


def closure(names: set[str] | list[str] | tuple[str, ...]) -> list[str]:
    """The attributes ``names`` need, dependencies first."""
    out: list[str] = []

    def visit(n: str) -> None:
        if n not in out:
            for d in ATTRIBUTES[n].depends:
                visit(d)
            out.append(n)

    for n in sorted(names):
        visit(n)
    return out


def live(values: list[Any]) -> list[int]:
    """The indices whose value is set (not None, empty or false)."""
    return list(compress(range(len(values)), values))


# -- settings --------------------------------------------------------------------------------------
#: The ``attributes:`` block of a rule file, key by key (what the compiler validates): each group's
#: declaration, in the order the concern modules register them. Every key is optional.
SETTINGS: dict[str, Param] = {}
#: group name -> its settings class; ``MentionSettings.<name>`` is the built group
GROUPS: dict[str, type] = {}
_PARAM, _GROUP, _SIBLING, _RESOURCES = "param", "group", "sibling", "resources"


def setting(kind: str, **spec: Any) -> Any:
    """A field of a settings group: the rule-file key of the same name (``Param(kind, **spec)``)."""
    return field(metadata={_PARAM: Param(kind, **spec)})


def nested(group: type, help: str) -> Any:
    """A field that is a mapping of its own settings (``word_match:`` of the words group)."""
    return field(metadata={_PARAM: Param("mapping", help=help, fields=params_of(group)), _GROUP: group})


def sibling(name: str) -> Any:
    """A field that holds another group, built before this one (``names`` reads ``people``'s lists)."""
    return field(metadata={_SIBLING: name}, repr=False)


def resources() -> Any:
    """A field that holds the process's ``Resources`` (WordNet and the word-level memo)."""
    return field(metadata={_RESOURCES: True}, repr=False)


def settings_class(cls: type) -> type:
    """``cls`` as a frozen dataclass of settings (fields from ``setting``, ``nested``, ``sibling``)."""
    return dataclass(frozen=True, eq=False)(cls)


def params_of(group: type) -> dict[str, Param]:
    """The rule-file keys a settings class declares, in field order."""
    return {f.name: f.metadata[_PARAM] for f in fields(group) if _PARAM in f.metadata}


def settings_group(name: str, *, help: str = "", top_level: bool = False) -> Callable[[type], type]:
    """Register a settings class as the ``attributes:`` group ``name`` (``top_level``: its keys stand
    in ``attributes:`` itself, as ``common_words`` does); the pipeline's settings hold it as
    ``MentionSettings.<name>``."""

    def deco(cls: type) -> type:
        cls = settings_class(cls)
        params = params_of(cls)
        if top_level:
            SETTINGS.update(params)
        else:
            SETTINGS[name] = Param("mapping", help=help, fields=params)
        cls.top_level = top_level
        GROUPS[name] = cls
        return cls

    return deco


def build_group(group: type, values: dict[str, Any], settings: MentionSettings) -> Any:
    """The settings object of ``group`` from the compiler's values (defaults filled in, word lists
    as paths or inline lists): word lists loaded, lists made tuples, nested groups built."""
    kwargs: dict[str, Any] = {}
    for f in fields(group):
        if f.init:
            kwargs[f.name] = _value(f, values, settings)
    return group(**kwargs)


def _value(f: Field, values: dict[str, Any], settings: MentionSettings) -> Any:
    meta = f.metadata
    if _SIBLING in meta:
        return getattr(settings, meta[_SIBLING])
    if _RESOURCES in meta:
        return settings.resources
    value, kind = values[f.name], meta[_PARAM].kind
    if _GROUP in meta:
        return build_group(meta[_GROUP], value, settings)
    if kind == "wordlist":
        return settings.lexicon(value)
    return tuple(value) if kind in ("str_list", "regexes") else value


class MentionSettings:
    """The ``attributes:`` settings of one rule file, one typed object per group (``GROUPS``), built
    with their word lists loaded once per pipeline; and the rule file's pronoun types."""

    def __init__(self, values: dict[str, Any], resources: Any, pronoun_types: frozenset[str]):
        self.resources = resources
        self.pronoun_types = pronoun_types
        for name, group in GROUPS.items():
            setattr(self, name, build_group(group, values if group.top_level else values[name], self))

    def lexicon(self, value: Any) -> Lexicon:
        """A word list of the settings: a file (shared through Resources) or an inline list."""
        return Lexicon(value, name="attributes") if isinstance(value, (list, tuple)) else self.resources.lexicon(value)

    @property
    def wordnet(self) -> Any:
        return self.resources.wordnet

    def __getattr__(self, name: str) -> Any:  # only for names no group set: say which groups exist
        raise AttributeError(f"no attributes settings group {name!r} (groups: {', '.join(GROUPS)})")
