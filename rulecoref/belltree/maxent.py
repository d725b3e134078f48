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

from ..bounded import Limit, NotRegular, json_loads, read_bytes
from ..errors import ModelError, diagnostic
from ..io.outdir import write_atomic

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

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":")) + "\n"

    def save(self, path: str | Path) -> None:
        write_atomic(path, self.to_json())

    @classmethod
    def from_dict(cls, data: Any, source: str = "<model>") -> MaxEntModel:
        """A model from its JSON data, checked against the shape ``rulecoref train`` writes first
        (``check_model``: RC601, RC602, RC607), so a broken model stops before any document runs."""
        check_model(data, source)
        return cls(data["kind"], dict(zip(data["features"], (float(w) for w in data["weights"]))), data["intercept"],
                   data.get("settings") or {}, data.get("stats") or {})

    @classmethod
    def load(cls, path: str | Path) -> MaxEntModel:
        """Read a model file within the limits (RC606: size, nesting, values) and check it."""
        path = Path(path)
        if not path.exists():
            raise ModelError(diagnostic("RC603", file=str(path), path=str(path)))
        try:
            data = json_loads(read_bytes(path, MAX_MODEL_BYTES).decode("utf-8"), max_values=MAX_MODEL_VALUES)
        except Limit as exc:
            raise ModelError(diagnostic("RC606", file=str(path), path=str(path), detail=str(exc))) from exc
        except NotRegular as exc:
            raise ModelError(diagnostic("RC601", file=str(path), path=str(path), detail=f"it is {exc.kind}, not a file")) from exc
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise ModelError(diagnostic("RC601", file=str(path), path=str(path), detail=f"cannot read JSON: {exc}")) from exc
        return cls.from_dict(data, str(path))


# -- the shape of a model file (checked at load time, before any document) ---------------------------

#: A model file: at most this many bytes and JSON values (the largest trained here, CRAFT's hybrid
#: model with 700,000 features, is about 40 MB and 1.4 million values).
MAX_MODEL_BYTES = 256 * 1024 * 1024
MAX_MODEL_VALUES = 20_000_000
MODEL_KEYS = ("format", "version", "kind", "settings", "stats", "intercept", "features", "weights")
#: The settings a decoder reads from a model (the others are a record of how it was trained).
_COUNT, _NUMBER, _FLAG, _NAMES = "a whole number >= 0", "a finite number", "true or false", "a list of strings"
SETTING_SHAPES = {"window": _COUNT, "max_members": _COUNT, "min_count": _COUNT, "documents": _COUNT,
                  "c": _NUMBER, "type_check": _FLAG, "rule_passes": _NAMES, "pronoun_types": _NAMES,
                  "kind": "a model kind", "rules": "a string or null"}


def _fits(shape: str, value: Any) -> bool:
    if shape == _COUNT:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**9
    if shape == _NUMBER:
        return _finite(value)
    if shape == _FLAG:
        return isinstance(value, bool)
    if shape == _NAMES:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if shape == "a model kind":
        return value in KINDS
    return value is None or isinstance(value, str)


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _shown(value: Any) -> str:
    text = json.dumps(value)[:60] if not isinstance(value, str) else repr(value[:60])
    return text + ("..." if len(text) >= 60 else "")


def check_model(data: Any, source: str = "<model>") -> None:
    """Raise ModelError unless ``data`` has the shape of a model file: RC601 (not a model),
    RC602 (another format version), RC607 naming the first key of the wrong shape."""
    def bad(where: str, expected: str, got: Any) -> ModelError:
        return ModelError(diagnostic("RC607", file=source, path=source, where=where, expected=expected, got=_shown(got)))

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ModelError(diagnostic("RC601", file=source, path=source,
                                    detail=f"not a rulecoref Bell-tree model (expected \"format\": \"{FORMAT}\")"))
    if data.get("version") != FORMAT_VERSION:
        raise ModelError(diagnostic("RC602", file=source, path=source, got=data.get("version"), expected=FORMAT_VERSION))
    unknown = sorted(set(data) - set(MODEL_KEYS))
    if unknown:
        raise bad(unknown[0], f"one of the keys {', '.join(MODEL_KEYS)}", "an unknown key")
    if data.get("kind") not in KINDS:
        raise bad("kind", " or ".join(KINDS), data.get("kind"))
    names, weights = data.get("features"), data.get("weights")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise bad("features", "a list of feature names (strings)", names)
    if len(set(names)) != len(names):
        raise bad("features", "each feature once", "a feature listed twice")
    if not isinstance(weights, list) or len(weights) != len(names):
        raise bad("weights", f"a list of {len(names)} numbers, one per feature", weights)
    if not all(map(_finite, weights)):
        raise bad("weights", "finite numbers", next(w for w in weights if not _finite(w)))
    if not _finite(data.get("intercept")):
        raise bad("intercept", "a finite number", data.get("intercept"))
    for key in ("settings", "stats"):
        if data.get(key) is not None and not isinstance(data[key], dict):
            raise bad(key, "an object", data[key])
    for key, value in (data.get("settings") or {}).items():
        shape = SETTING_SHAPES.get(key)
        if shape is not None and not _fits(shape, value):
            raise bad(f"settings.{key}", shape, value)


def is_model_file(path: Path) -> bool:
    """Whether ``path`` starts as a file that ``save`` writes: ``train`` replaces only such a file."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return False
    return head.startswith(b'{"format":"' + FORMAT.encode() + b'"')
