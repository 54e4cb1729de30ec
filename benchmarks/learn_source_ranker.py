"""Learn the source re-ranker's weights from the development set (pairwise logistic regression).

Imports the PostgreSQL manual, runs the keyword search's candidate stage for every development question
(``pg15_questions.tsv`` only: the held-out sets are never read here), computes each candidate source's
features (``search.FEATURES``), and fits a linear score by pairwise logistic regression (every right page
against every wrong one of the same question, L2-regularised), with plain numpy and Newton steps.
Cross-validation within the development set (k folds, repeated with several shuffles) chooses the
feature set and the regularisation; the figures it prints are recall@5 of sources, as the quality
benchmark counts them.

Three ways to fit: pairwise logistic regression (default), ``--listwise`` (softmax loss; ``--prior``
shrinks towards the current ranking instead of towards zero), ``--ascent`` (coordinate ascent on
recall@5 + MRR). ``--relative`` scales every feature to the question's best candidate.

Result (an experiment, not kept; see search.py's docstring): cross-validated recall@5 on the development
set was 84 to 87 for every feature set, fit and pool (the current ranking: 85), and the two models with
the best cross-validated figures lost 5 held-out questions (137/159 against 142).

    python benchmarks/learn_source_ranker.py [--db DIR] [--pool 100] [--link-only 5] [--listwise]
        [--sets base+cov_page+title+heading ...] [--lam 0.01 0.1 1] [--folds 5] [--repeats 10] [--weights]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tinyrag_desktop.kb import Importer, open_store  # noqa: E402
from tinyrag_desktop.kb.search import FEATURES, _source_candidates, _source_features  # noqa: E402
from tinyrag_desktop.kb.store import DB_NAME  # noqa: E402

DATA = Path(__file__).with_name("data")
QUESTIONS = DATA / "pg15_questions.tsv"
CORPUS = Path("/usr/share/doc/postgresql-doc-15/html")


def load_questions(path: Path) -> list[tuple[str, set[str]]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            question, pages = line.split("\t")
            out.append((question, set(pages.split())))
    return out


def gather(folder: Path, pool: int, link_only: int, with_idf: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per development question: (features of its candidates, 1 for a right page and 0 otherwise)."""
    import sqlite3

    conn = sqlite3.connect(folder / DB_NAME)
    out = []
    for question, pages in load_questions(QUESTIONS):
        found, concepts, idf = _source_candidates(conn, question, pool, link_only, with_idf)
        rows = _source_features(found, concepts, idf)
        labels = [float(Path(ev.hits[0].location).name in pages) for ev in found]
        x = np.array(rows, dtype=float).reshape(-1, len(FEATURES))
        if RELATIVE and len(x):  # each feature against the question's best candidate for it
            x[:, 1:] = x[:, 1:] / np.maximum(np.abs(x[:, 1:]).max(axis=0), 1e-9)
        out.append((x, np.array(labels)))
    conn.close()
    return out


def recall(data: list[tuple[np.ndarray, np.ndarray]], w: np.ndarray, k: int = 5) -> tuple[int, float]:
    """(questions with a right page in the top k, mean reciprocal rank) when sources are ranked by X @ w."""
    hits, rr = 0, 0.0
    for x, y in data:
        if not len(y):
            continue
        s = x @ w
        # ties go to the candidate found first, as in the search (a stable sort)
        order = np.argsort(-s, kind="stable")
        ranks = np.nonzero(y[order])[0]
        if len(ranks):
            hits += ranks[0] < k
            rr += 1.0 / (1 + ranks[0])
    return hits, rr / len(data)


def pairs(data: list[tuple[np.ndarray, np.ndarray]], top: int) -> tuple[np.ndarray, np.ndarray]:
    """Differences right minus wrong, for the wrong pages among each question's ``top`` candidates by the
    current ranking (feature 0), each question weighing 1 in all."""
    diffs, weights = [], []
    for x, y in data:
        pos, neg = np.nonzero(y)[0], np.nonzero(y == 0)[0]
        if not len(pos) or not len(neg):
            continue
        head = set(np.argsort(-x[:, 0], kind="stable")[:top])
        neg = np.array([j for j in neg if j in head])
        if not len(neg):
            continue
        d = (x[pos][:, None, :] - x[neg][None, :, :]).reshape(-1, x.shape[1])
        diffs.append(d)
        weights.append(np.full(len(d), 1.0 / len(d)))
    return np.concatenate(diffs), np.concatenate(weights)


def fit(data: list[tuple[np.ndarray, np.ndarray]], cols: list[int], lam: float, top: int) -> np.ndarray:
    """Weights over all FEATURES (zero outside ``cols``) by Newton's method on the pairwise loss."""
    sub = [(x[:, cols], y) for x, y in data]
    d, a = pairs(sub, top)
    scale = d.std(axis=0) + 1e-9  # standardised, so one lambda suits every feature
    z = d / scale
    w = np.zeros(len(cols))
    for _ in range(30):
        m = z @ w
        p = 1.0 / (1.0 + np.exp(m))  # sigmoid(-margin)
        grad = -(a * p) @ z + 2 * lam * w
        hess = (z * (a * p * (1 - p))[:, None]).T @ z + 2 * lam * np.eye(len(cols))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    full = np.zeros(len(FEATURES))
    full[cols] = w / scale
    return full


def fit_listwise(data: list[tuple[np.ndarray, np.ndarray]], cols: list[int], lam: float, top: int) -> np.ndarray:
    """Weights by the softmax (listwise) loss: minus the log of the right pages' share of
    exp(score) over each question's ``top`` candidates by the current ranking; damped Newton steps."""
    sub = []
    for x, y in data:
        if not y.any():
            continue
        head = np.argsort(-x[:, 0], kind="stable")[:top]
        keep = np.union1d(head, np.nonzero(y)[0])
        sub.append((x[keep][:, cols], y[keep]))
    scale = np.concatenate([x for x, _ in sub]).std(axis=0) + 1e-9
    sub = [(x / scale, y) for x, y in sub]
    prior = np.zeros(len(cols))
    if PRIOR and cols[0] == 0:  # shrink towards the current ranking (at its best-fitting scale), not zero
        prior[0] = _newton(sub, np.zeros(len(cols)), 0.0, [0])[0]
    return _finish(_newton(sub, prior, lam, list(range(len(cols)))), cols, scale)


def _newton(sub, prior: np.ndarray, lam: float, free: list[int]) -> np.ndarray:
    """Minimise the mean softmax loss plus lam * |w - prior|^2 over the coordinates ``free``."""
    w = prior.copy()
    eye = np.eye(len(w))[np.ix_(free, free)]
    for _ in range(50):
        grad = 2 * lam * (w - prior)
        hess = 2 * lam * np.eye(len(w))
        for z, y in sub:
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            q = np.where(y > 0, np.exp(s - s[y > 0].max()), 0.0)  # the right pages' own softmax
            q /= q.sum()
            mean_all, mean_pos = p @ z, q @ z
            grad += (mean_all - mean_pos) / len(sub)
            zc = z - mean_all
            hess += (zc * p[:, None]).T @ zc / len(sub)
        step = np.linalg.solve(hess[np.ix_(free, free)] + 1e-6 * eye, grad[free])
        step *= min(1.0, 1.0 / (np.abs(step).max() or 1.0))  # damped: a step of at most 1 (standardised)
        w[free] -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def _finish(w: np.ndarray, cols: list[int], scale: np.ndarray) -> np.ndarray:
    full = np.zeros(len(FEATURES))
    full[cols] = w / scale
    return full


def fit_ascent(data: list[tuple[np.ndarray, np.ndarray]], cols: list[int], lam: float, top: int) -> np.ndarray:
    """Weights by coordinate ascent on recall@5 plus MRR (Metzler and Croft's method for linear
    rankers): from the current ranking, each feature's weight in turn is set to the best of a grid
    around it; ``lam`` scales the grid (the largest step, in the feature's spread against 'base')."""
    sub = [(x, y) for x, y in data if y.any()]
    spread = np.concatenate([x for x, _ in sub]).std(axis=0) + 1e-9
    w = np.zeros(len(FEATURES))
    w[0] = 1.0

    def objective(v: np.ndarray) -> float:
        h, r = recall(sub, v)
        return h + r * len(sub) * 0.1

    best = objective(w)
    steps = lam * spread[0] / spread * np.array([-1, -0.5, -0.25, -0.1, 0.1, 0.25, 0.5, 1])[:, None]
    for _ in range(3):
        improved = False
        for c in cols:
            if c == 0:
                continue
            for step in steps[:, c]:
                v = w.copy()
                v[c] += step
                value = objective(v)
                if value > best + 1e-9:
                    w, best, improved = v, value, True
        if not improved:
            break
    return w


def cross_validated(data, cols, lam, top, folds, repeats) -> tuple[float, float]:
    """Mean recall@5 (in questions) and MRR over ``repeats`` shuffles of ``folds``-fold cross-validation."""
    rng = np.random.default_rng(1)
    found, mrr = 0.0, 0.0
    for _ in range(repeats):
        order = rng.permutation(len(data))
        for f in range(folds):
            test = [data[i] for i in order[f::folds]]
            train = [data[i] for i in order if i not in set(order[f::folds])]
            w = FIT(train, cols, lam, top)
            h, r = recall(test, w)
            found += h
            mrr += r * len(test)
    return found / repeats, mrr / repeats / len(data)


FIT = fit
PRIOR = False
RELATIVE = False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a folder to keep the imported manual in between runs")
    parser.add_argument("--pool", type=int, default=100, help="chunks the candidate stage reads")
    parser.add_argument("--link-only", type=int, default=10, help="pages only links found, at most")
    parser.add_argument("--top", type=int, default=30, help="wrong pages per question in the pairs")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--idf", action="store_true", help="compute IDF-weighted coverage (one count per word)")
    parser.add_argument("--sets", nargs="*", help="feature sets to compare, as names joined by '+'")
    parser.add_argument("--lam", type=float, nargs="+", default=[0.01, 0.1, 1.0])
    parser.add_argument("--weights", action="store_true", help="print the fitted weights")
    parser.add_argument("--ascent", action="store_true", help="coordinate ascent on recall@5 and MRR")
    parser.add_argument("--prior", action="store_true", help="listwise: shrink towards the current ranking")
    parser.add_argument("--relative", action="store_true", help="features scaled to each question's best")
    parser.add_argument("--listwise", action="store_true", help="the softmax loss instead of the pairwise one")
    args = parser.parse_args()
    global FIT, PRIOR, RELATIVE
    PRIOR, RELATIVE = args.prior, args.relative
    FIT = fit_listwise if args.listwise else fit_ascent if args.ascent else fit
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.db or Path(tmp)
        if not (folder / DB_NAME).is_file():
            folder.mkdir(parents=True, exist_ok=True)
            kb = open_store(folder)
            assert kb is not None
            Importer(kb).run(sorted(str(p) for p in CORPUS.rglob("*.html")))
            kb.close()
        data = gather(folder, args.pool, args.link_only, args.idf)
    n = len(data)
    reach = sum(bool(y.any()) for _, y in data)
    base = np.eye(len(FEATURES))[0]
    print(f"{n} development questions; a right page among the candidates for {reach}; "
          f"mean candidates {np.mean([len(y) for _, y in data]):.1f}")
    h, r = recall(data, base)
    print(f"current ranking (feature 'base' alone): recall@5 {h}/{n}, MRR {r:.3f}")
    sets = {"all": list(range(len(FEATURES)))}
    if args.sets:
        sets = {name: [FEATURES.index(f) for f in name.split("+")] for name in args.sets}
    for name, cols in sets.items():
        for lam in args.lam:
            w = FIT(data, cols, lam, args.top)
            h, r = recall(data, w)
            cv, cv_mrr = cross_validated(data, cols, lam, args.top, args.folds, args.repeats)
            print(f"{name:60s} lam {lam:<6g} train {h:3d}/{n} MRR {r:.3f}  CV {cv:6.2f}/{n} MRR {cv_mrr:.3f}")
            if args.weights:
                print("   " + ", ".join(f"{FEATURES[c]} {w[c]:+.4f}" for c in cols))
    return 0


if __name__ == "__main__":
    sys.exit(main())
