"""Train the boundary model (boundary.py beside this file: an experiment, not part of zhen)
on the gold sets, and measure it.

    python scripts/boundary_model/train.py --no-rule --alpha 1 --cv        # leave one gold set out: train on the
                                                 # others, score the finder on it, with
                                                 # and without the model
    python scripts/boundary_model/train.py --no-rule --alpha 1 --write     # train on every training set and write
                                                 # weights.json beside this file
    python scripts/boundary_model/train.py --score FILE.yaml ...   # the shipped model on sets

Every sighting the finder reads in a gold passage whose English matches a label gives
one example: the run's candidate starts (boundary.candidates), their features
(boundary.features, computed with the rules' own start as one feature) and which
candidates give the labelled Chinese. A sighting whose labelled Chinese no candidate
gives (a Latin head, a term the run does not reach) is no example. The model is a
conditional logit (softmax over one sighting's candidates) with an L2 penalty, fitted by
full-batch Adam with numpy (a test extra, not a dependency of zhen: inference is a dot
product in boundary.py).

Held-out sets listed in HELD_OUT are never trained on, by --write or by --cv.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

GOLD_DIR = ROOT / "tests" / "gold"
TRAIN = ["parentheticals", "heldout", "final", "probe", "unseen", "unseen2", "unseen3",
         "unseen4", "unseen5", "unseen6", "unseen7", "unseen8", "unseen9", "unseen10",
         "unseen11", "unseen12", "unseen13"]
HELD_OUT = ["unseen14"]
OUT = Path(__file__).resolve().with_name("weights.json")
L2 = 0.05
STEPS = 400


def _cjk(text: str) -> bool:
    from zhenglossary.textutil import CJK_CLASS
    import re

    return bool(re.search(f"[{CJK_CLASS}]", text))


def examples(name: str) -> list[tuple[list[dict[str, float]], list[int]]]:
    """(features per candidate, indices of the right candidates) for each sighting."""
    import yaml

    from eval_suggest import _keys
    import boundary
    from zhenglossary.bilingual import canonical_english, find_parentheticals
    from zhenglossary.prose import prose_view

    items = yaml.safe_load((GOLD_DIR / f"{name}.yaml").read_text("utf-8"))["items"]
    out = []
    boundary.use_weights(None)
    try:
        for item in items:
            gold = [(g["zh"], _keys(g.get("en", ""), g.get("abbr", ""))) for g in item["terms"]]
            boundary.recorder = []
            find_parentheticals(prose_view(item["text"]), source=item["text"])
            for s, feats in boundary.recorder:
                keys = _keys(canonical_english(s.english) if s.english else "", s.abbr)
                labels = [zh for zh, k in gold if k & keys]
                if not labels:
                    continue
                right = []
                for k, (i, _) in enumerate(feats):
                    piece = s.run[i:]
                    for g in labels:
                        if g == piece or (g.startswith(piece) and not _cjk(g[len(piece):])) \
                                or (i == 0 and g.endswith(piece) and not _cjk(g[:-len(piece)])):
                            right.append(k)
                            break
                if right:
                    fs = [dict(f, _i=i) for i, f in feats]
                    fs[0]["_run"] = s.run
                    fs[0]["_en"] = s.english or s.abbr
                    out.append((fs, right))
    finally:
        boundary.recorder = None
        boundary.clear_weights()
    return out


RULE_FEATURES = ("rule", "longer_", "shorter_")


def _matrix(data, rule: bool = True):
    """(feature names, one row per candidate, its sighting's index, 1.0 where it is right);
    without the rules' features when ``rule`` is False."""
    import numpy as np

    if not rule:
        data = [([{k: v for k, v in f.items() if not k.startswith(RULE_FEATURES)} for f in feats],
                 right) for feats, right in data]
    names = sorted({k for feats, _ in data for f in feats for k in f if not k.startswith("_")})
    index = {k: j for j, k in enumerate(names)}
    X = np.zeros((sum(len(feats) for feats, _ in data), len(names)))
    groups, positive = [], []
    row = 0
    for g, (feats, right) in enumerate(data):
        for c, f in enumerate(feats):
            for k, v in f.items():
                if k in index:
                    X[row, index[k]] = v
            row += 1
            groups.append(g)
            positive.append(c in right)
    return names, X, np.array(groups), np.array(positive, dtype=float)


def fit(data, l2: float = L2, steps: int = STEPS, rule: bool = True) -> dict[str, float]:
    import numpy as np

    names, X, group, pos = _matrix(data, rule)
    index = {k: j for j, k in enumerate(names)}
    n_groups = len(data)
    w = np.zeros(len(names))
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    lr, b1, b2 = 0.05, 0.9, 0.999
    for t in range(1, steps + 1):
        s = X @ w
        mx = np.full(n_groups, -np.inf)
        np.maximum.at(mx, group, s)
        e = np.exp(s - mx[group])
        z = np.zeros(n_groups)
        np.add.at(z, group, e)
        zp = np.zeros(n_groups)
        np.add.at(zp, group, e * pos)
        p_all = e / z[group]                 # p(candidate)
        p_pos = e * pos / zp[group]          # p(candidate | right)
        grad = X.T @ (p_all - p_pos) / n_groups + l2 * w
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + 1e-8)
    return {k: round(float(w[j]), 5) for k, j in index.items() if abs(w[j]) > 1e-6}


def fit_mlp(data, hidden: int = 16, l2: float = 1e-3, steps: int = 600, rule: bool = True,
            seed: int = 0) -> dict:
    """A softmax over candidates of a one-hidden-layer network's scores (tanh), for
    interactions the linear model cannot express; the weights as lists."""
    import numpy as np

    names, X, group, pos = _matrix(data, rule)
    n_groups = len(data)
    rng = np.random.default_rng(seed)
    params = {"W": rng.normal(0, 0.1, (len(names), hidden)), "b": np.zeros(hidden),
              "u": rng.normal(0, 0.1, hidden), "w": np.zeros(len(names))}
    mom = {k: np.zeros_like(v) for k, v in params.items()}
    vel = {k: np.zeros_like(v) for k, v in params.items()}
    lr, b1, b2 = 0.01, 0.9, 0.999
    for t in range(1, steps + 1):
        H = np.tanh(X @ params["W"] + params["b"])
        sc = H @ params["u"] + X @ params["w"]
        mx = np.full(n_groups, -np.inf)
        np.maximum.at(mx, group, sc)
        e = np.exp(sc - mx[group])
        z = np.zeros(n_groups)
        np.add.at(z, group, e)
        zp = np.zeros(n_groups)
        np.add.at(zp, group, e * pos)
        d = (e / z[group] - e * pos / zp[group]) / n_groups       # d loss / d score
        dH = np.outer(d, params["u"]) * (1 - H * H)
        grads = {"u": H.T @ d + l2 * params["u"], "w": X.T @ d + l2 * params["w"],
                 "W": X.T @ dH + l2 * params["W"], "b": dH.sum(0)}
        for k in params:
            mom[k] = b1 * mom[k] + (1 - b1) * grads[k]
            vel[k] = b2 * vel[k] + (1 - b2) * grads[k] ** 2
            params[k] -= lr * (mom[k] / (1 - b1 ** t)) / (np.sqrt(vel[k] / (1 - b2 ** t)) + 1e-8)
    return {"names": names, **{k: v.tolist() for k, v in params.items()}}


def score(name: str, weights) -> dict:
    from eval_suggest import evaluate_gold
    import boundary

    boundary.use_weights(weights)
    try:
        return evaluate_gold(GOLD_DIR / f"{name}.yaml", with_suggest=False)["finder"]
    finally:
        boundary.clear_weights()


def _line(name: str, f: dict) -> str:
    return (f"R {f['recall']:.1%} P {f['precision']:.1%} ({f['right']}/{f['labelled']} right, "
            f"{f['boundary_errors']} boundary, {f['non_terms']} non-terms)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cv", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--score", nargs="*", default=None)
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--sets", nargs="*", default=None, help="the --cv folds to score")
    parser.add_argument("--show", action="store_true", help="list the fold's examples the model gets wrong")
    parser.add_argument("--alpha", type=float, default=None, help="weight added to the rules' start")
    parser.add_argument("--hidden", type=int, default=0, help="a network with this many hidden units")
    parser.add_argument("--no-rule", action="store_true", help="without the rules' start as a feature")
    args = parser.parse_args(argv)
    data = {name: examples(name) for name in TRAIN}
    print("examples: " + ", ".join(f"{k} {len(v)}" for k, v in data.items()), flush=True)
    print("rules wrong, right start among candidates: " + ", ".join(
        f"{k} {sum(1 for feats, right in v if not any('rule' in feats[c] for c in right))}"
        for k, v in data.items()), flush=True)
    if args.cv:
        tot = {"rule": [0, 0, 0], "model": [0, 0, 0]}
        for name in args.sets or TRAIN:
            train = [ex for other, exs in data.items() if other != name for ex in exs]
            if args.hidden:
                w = fit_mlp(train, args.hidden, rule=not args.no_rule)
                w["alpha"] = args.alpha or 0.0
            else:
                w = fit(train, args.l2, rule=not args.no_rule)
                if args.alpha is not None:
                    w = dict(w, rule=w.get("rule", 0.0) + args.alpha)
            base, learned = score(name, None), score(name, w)
            for key, f in (("rule", base), ("model", learned)):
                tot[key][0] += f["right"]
                tot[key][1] += f["labelled"]
                tot[key][2] += f["boundary_errors"]
            if args.show:
                _show(data[name], w)
            print(f"{name}: rules {_line(name, base)}\n{'':>{len(name)}}  model {_line(name, learned)}",
                  flush=True)
        for key, (right, labelled, cut) in tot.items():
            print(f"all folds, {key}: {right}/{labelled} right ({right / labelled:.1%}), "
                  f"{cut} boundary errors")
    if args.write:
        every = [ex for exs in data.values() for ex in exs]
        if args.hidden:
            w = fit_mlp(every, args.hidden, rule=not args.no_rule)
            w["alpha"] = args.alpha or 0.0
        else:
            w = fit(every, args.l2, rule=not args.no_rule)
            if args.alpha is not None:
                w = dict(w, rule=round(w.get("rule", 0.0) + args.alpha, 5))
        OUT.write_text(json.dumps({
            "about": "boundary.py's weights, written by scripts/boundary_model/train.py --write",
            "trained_on": TRAIN, "l2": args.l2, "steps": STEPS,
            "rule_feature": "fitted" if not args.no_rule else f"not fitted; weight {args.alpha}",
            "examples": sum(len(v) for v in data.values()),
            "hidden": args.hidden,
            "weights": w if args.hidden else dict(sorted(w.items()))},
            indent=None if args.hidden else 1, ensure_ascii=False) + "\n", "utf-8")
        print(f"wrote {OUT.relative_to(ROOT)} ({len(w)} weights)")
    if args.score is not None:
        for path in args.score:
            name = Path(path).stem
            print(f"{name}: rules {_line(name, score(name, None))}")
            print(f"{name}: model {_line(name, score(name, _shipped()))}")
    return 0


def _show(exs, w) -> None:
    for feats, right in exs:
        scores = [sum(w.get(k, 0.0) * v for k, v in f.items() if not k.startswith("_")) for f in feats]
        best = max(range(len(feats)), key=lambda c: (scores[c], -c))
        rule = next(c for c, f in enumerate(feats) if "rule" in f)
        if best in right and rule in right:
            continue
        run = feats[0].get("_run", "")
        tag = "FIXED" if best in right else ("BROKE" if rule in right else "BOTH-WRONG")
        print(f"  {tag}: {run} | gold {[run[feats[c]['_i']:] for c in right][:1]} "
              f"rule {run[feats[rule]['_i']:]} model {run[feats[best]['_i']:]} ({feats[0].get('_en')})")


def _shipped():
    import boundary

    return boundary.shipped()


if __name__ == "__main__":
    sys.exit(main())
