"""Binary maximum-entropy link models (seed 000 eqs. 10-11) trained as logistic regression.

A binary maxent model over indicator features is exactly L2-regularised logistic regression, so
scikit-learn fits it. Prediction does not need scikit-learn: P(link) = sigmoid(b + sum of the
weights of the active features), computed from the feature -> weight table. Models are JSON
(feature index, weights, intercept, settings, kind, format version), never pickle, so a model file
is inspectable and cannot run code when loaded.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from itertools import repeat
from pathlib import Path
from typing import Any

from ..errors import ModelError, diagnostic
from ..io.i2b2 import write_atomic

FORMAT = "rulecoref-belltree-model"
FORMAT_VERSION = 2  # 2: features from the mention table (rulecoref 0.2); version-1 models must be retrained
KINDS = ("mention-pair", "entity-mention")


def sigmoid(z: float) -> float:
    """P(link) from its log-odds, without overflow for large |z|."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    ez = math.exp(z)
    return ez / (1.0 + ez)


class MaxEntModel:
    """P(link | features) for one model kind; ``weights`` maps feature strings to weights."""

    def __init__(self, kind: str, weights: dict[str, float], intercept: float, settings: dict[str, Any] | None = None,
                 stats: dict[str, Any] | None = None):
        if kind not in KINDS:
            raise ValueError(f"unknown model kind {kind!r}")
        self.kind = kind
        self.weights = weights
        self.intercept = float(intercept)
        self.settings = dict(settings or {})
        self.stats = dict(stats or {})

    def score(self, features: Iterable[str]) -> float:
        """The linear score b + sum w_f (log-odds of a link)."""
        return self.intercept + sum(map(self.weights.get, features, repeat(0.0)))

    def prob(self, features: Iterable[str]) -> float:
        return sigmoid(self.score(features))

    # -- JSON -----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        names = sorted(self.weights)
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "kind": self.kind,
            "settings": self.settings,
            "stats": self.stats,
            "intercept": self.intercept,
            "features": names,
            "weights": [self.weights[n] for n in names],
        }

    def save(self, path: str | Path) -> None:
        write_atomic(path, json.dumps(self.to_dict(), separators=(",", ":")) + "\n")

    @classmethod
    def from_dict(cls, data: Any, source: str = "<model>") -> MaxEntModel:
        def bad(detail: str, code: str = "RC601") -> ModelError:
            return ModelError(diagnostic(code, file=source, path=source, detail=detail))

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise bad(f"not a rulecoref Bell-tree model (expected \"format\": \"{FORMAT}\")")
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise ModelError(diagnostic("RC602", file=source, path=source, got=version, expected=FORMAT_VERSION))
        kind = data.get("kind")
        if kind not in KINDS:
            raise bad(f"unknown model kind {kind!r}; known: {', '.join(KINDS)}")
        names, weights = data.get("features"), data.get("weights")
        if not isinstance(names, list) or not isinstance(weights, list) or len(names) != len(weights):
            raise bad("'features' and 'weights' must be lists of the same length")
        if not all(isinstance(w, (int, float)) for w in weights) or not isinstance(data.get("intercept"), (int, float)):
            raise bad("weights and intercept must be numbers")
        return cls(kind, dict(zip(names, (float(w) for w in weights))), data["intercept"],
                   data.get("settings") or {}, data.get("stats") or {})

    @classmethod
    def load(cls, path: str | Path) -> MaxEntModel:
        path = Path(path)
        if not path.is_file():
            raise ModelError(diagnostic("RC603", file=str(path), path=str(path)))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ModelError(diagnostic("RC601", file=str(path), path=str(path), detail=f"cannot read JSON: {exc}")) from exc
        return cls.from_dict(data, str(path))
