"""The ``belltree`` decoder: a rule file's ``decoder: {kind: belltree, model: ..., ...}``.

With no passes in the rule file (rules/belltree.yaml) the model alone decides. With passes
(rules/hybrid.yaml) the engine runs them first and their decisions reach the model as hybrid
features (and rule-linked entities are always candidates, even outside the window).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from ..decoders import Decoder, register_decoder
from ..document import Document
from ..errors import ModelError, diagnostic
from ..params import Param
from .beam import Problem, SearchResult, SearchSettings, search
from .features import ATTRIBUTES, RuleView, extractor
from .maxent import MaxEntModel
from .scoring import make_scorer

DEFAULT_MODEL = "models/belltree.json"


#: search settings a model was trained with, used at decoding unless the rule file or a flag sets them
FROM_MODEL = {"window": 10, "max_members": 16, "type_check": True}


@register_decoder("belltree")
class BellTreeDecoder(Decoder):
    """Luo et al. 2004 beam search over the Bell tree with a maxent link model."""

    attributes = ATTRIBUTES
    params: ClassVar[dict[str, Param]] = {
        "model": Param("str", default=DEFAULT_MODEL,
                       help="model JSON from `rulecoref train` (relative to the rule file; --model overrides)"),
        "beam": Param("int", default=8, minimum=1, maximum=10_000,
                      help="maximum number of live hypotheses (Luo et al. 2004, section 4, 'limit hypotheses')"),
        "alpha": Param("float", default=1.0, minimum=1e-9, maximum=1.0,
                       help="start penalty of eq. 6; below 1 makes new entities dearer"),
        "local_prune": Param("float", default=0.0, minimum=0.0, maximum=1.0,
                             help="drop children scoring below this factor of their best sibling (0 = off)"),
        "global_prune": Param("float", default=0.0, minimum=0.0, maximum=1.0,
                              help="drop hypotheses whose path score is below this factor of the best (0 = off)"),
        "window": Param("int", default=None, minimum=0,
                        help="score only entities with a mention in the last W sentences, plus rule-linked ones "
                             "(0 = all); default: the model's training window"),
        "max_members": Param("int", default=None, minimum=0,
                             help="members compared per entity besides canonical/same-string ones (0 = all); "
                                  "default: the model's"),
        "top_n": Param("int", default=1, minimum=1, maximum=10_000, help="hypotheses kept at the leaves (nbest())"),
        "type_check": Param("bool", default=None,
                            help="never join mentions of different non-pronoun types; default: the model's"),
    }
    path_params: ClassVar[tuple[str, ...]] = ("model",)

    def __init__(self, params: dict[str, Any], resources: Any, ruleset: Any = None):
        super().__init__(params, resources, ruleset)
        path = Path(str(params.get("model") or DEFAULT_MODEL))
        self.model = MaxEntModel.load(path)
        trained = self.model.settings
        chosen = {k: params[k] if params.get(k) is not None else trained.get(k, default) for k, default in FROM_MODEL.items()}
        self.settings = SearchSettings(
            beam=int(params.get("beam", 8)),
            alpha=float(params.get("alpha", 1.0)),
            local_prune=float(params.get("local_prune", 0.0)),
            global_prune=float(params.get("global_prune", 0.0)),
            window=int(chosen["window"]),
            top_n=int(params.get("top_n", 1)),
            type_check=bool(chosen["type_check"]),
        )
        self.max_members = int(chosen["max_members"])
        trained_with = list(trained.get("rule_passes") or [])
        passes = list(getattr(ruleset, "passes", []) or [])
        self.passes = [(cfg.name, cfg.scope) for cfg in passes] if trained_with else []
        if trained_with and not ({n for n, _ in self.passes} & set(trained_with)):
            raise ModelError(diagnostic("RC604", file=str(path), path=str(path), passes=", ".join(trained_with)))

    def with_settings(self, **changes: Any) -> BellTreeDecoder:
        """A copy with other search settings (the sweep varies alpha without reloading the model)."""
        import copy
        from dataclasses import replace

        other = copy.copy(self)
        other.settings = replace(self.settings, **changes)
        return other

    def nbest(self, doc: Document, resolution: Any) -> SearchResult:
        """The ``top_n`` best partitions of the document's concepts with their log scores."""
        fx = extractor(resolution.table, resolution if self.passes else None, self.passes)
        if not self.passes and getattr(resolution, "kept", None):
            # A model without hybrid features still takes rule-linked entities as candidates.
            fx.rules.antecedents = RuleView(resolution, [], fx.tab.n).antecedents
        tab = fx.tab
        problem = Problem(tab.sent, tab.type, tab.pron, fx.rules.antecedents)
        scorer = make_scorer(self.model, fx, self.max_members)
        return search(problem, scorer, self.settings)

    def decode(self, doc: Document, resolution: Any) -> list[list[int]]:
        if not doc.concepts:
            return []
        return self.nbest(doc, resolution).best
