"""Tell a card's lone index from a fleck: the verifier that lets a card seen at one index corner be read surely.

A fanned card or one in a slid pile shows one index only, so its two indices cannot agree; the rank read at that
one corner was believed at most ``reader._ONE_CORNER_PENALTY`` of its probability, never enough for a book. The
verifier looks at the whole corner the reader read, not only its rank glyph: a rank glyph *and* a suit pip under
it, each of a size and place an index has against the other and against the card's edge and its plain margin,
the paper round them, and how the rank and suit readers answered. It is a small perceptron (``mlp``) that says
how likely the reading is right, trained on the hypotheses the pipeline itself reads in composited photos of the
*training* faces (and rendered ones in the training fonts) on the *training* tables (``tabletop.vision.build``):
an index read with its rank is a positive; everything else the pipeline hangs a card on and reads as a rank over
a pip is a negative (wood grain, cloth prints, a card's middle or court picture, its other corners, things on the
table, a card's index read as another rank). Never the held-out faces or tables, Edje or bidly.

The reader (``reader.Reader._combine``) lifts a lone corner's cap only when all of these hold: the rank reads at
0.8 or more, the suit at ``LONE_SUIT_SURE``, the rank glyph stands taller than its pip (``LONE_PIP_TO_RANK``), and
the verifier says ``LONE_VERIFIED``. A book still needs most of a few live frames to agree (``books``).
"""

from __future__ import annotations

import cv2
import numpy as np

from tabletop.vision.glyphs import CornerGlyphs, _percentile_90, hog

__all__ = ["index_features", "hypothesis_samples", "verifier_samples"]

_LOOK_W, _LOOK_H = 24, 40  # the whole corner, seen coarsely (its paper, edge and margin as much as its ink)


def index_features(corner: np.ndarray, glyphs: CornerGlyphs, rank_probs: np.ndarray,
                   suit_probs: np.ndarray | None) -> np.ndarray:
    """What the verifier sees of one upright corner crop the reader read (``glyphs``, and its answers).

    - where the rank glyph and the suit pip lie in the corner, how large each is against the corner and the
      other, the gap between them and how far the pip is off the glyph's middle;
    - the corner itself, coarse: grey levels against its paper, and gradients (the card's edge, its margin);
    - the rank and suit probabilities (how the readers answered), sorted as well (how sure, whatever the rank).
    """
    h, w = corner.shape[:2]
    rx, ry, rw, rh = glyphs.rank_box
    rw, rh = max(rw, 1), max(rh, 1)
    if glyphs.suit_box is not None:
        sx, sy, sw, sh = glyphs.suit_box
        sw, sh = max(sw, 1), max(sh, 1)
        suit_geometry = [1.0, sx / w, sy / h, sw / w, sh / h, np.log(sh / rh), np.log(sw / rw),
                         (sy - (ry + rh)) / rh, ((sx + sw / 2) - (rx + rw / 2)) / rw,
                         float(glyphs.suit.mean()) if glyphs.suit is not None else 0.0]
    else:
        suit_geometry = [0.0] * 10
    geometry = [rx / w, ry / h, rw / w, rh / h, np.log(rw / rh), float(glyphs.rank.mean()), glyphs.redness]
    grey8 = cv2.cvtColor(corner, cv2.COLOR_BGR2GRAY)
    grey = grey8.astype(np.float32)
    # np.percentile(grey, 90) of its whole grey levels, from their counts (``glyphs._percentile_90``: the same value)
    paper = max(_percentile_90(np.cumsum(np.bincount(grey8.ravel(), minlength=256)), grey), 1.0)
    look = cv2.resize(grey / paper, (_LOOK_W, _LOOK_H), interpolation=cv2.INTER_AREA)
    coarse = cv2.resize(look, (8, 12), interpolation=cv2.INTER_AREA).ravel()
    gradients = hog(np.clip(look * 255, 0, 255).astype(np.uint8), 8)
    probs = np.asarray(rank_probs, np.float32)
    suits = np.asarray(suit_probs, np.float32) if suit_probs is not None else np.zeros(4, np.float32)
    answers = [np.sort(probs)[::-1][:3], np.sort(suits)[::-1][:2], probs, suits]
    level = [paper / 255.0, float(grey.std()) / paper]
    return np.concatenate([np.array(geometry + suit_geometry + level, np.float32), coarse, gradients,
                           *[np.asarray(a, np.float32) for a in answers]]).astype(np.float32)


ORIENTED = 0.8
"""A hypothesis reads a card's index when its corner crop holds the index's middle and its top edge runs within
about 35 degrees of the card's (the build's labels)."""


INDEX_MIDDLE = (0.085, 0.13)
"""The middle of a card's index, in shares of its width and height from its corner (the build's labels)."""
CROP = (0.27, 0.36)
"""The share of a card hypothesis's width and height that the reader's corner crop holds (``glyphs``)."""


def _read_right(corners: np.ndarray, placed, rank: str) -> bool:
    """True if the corner crop the reader takes of the hypothesis ``corners`` (index corner first) holds the middle
    of an index of a card of ``rank`` that no card laid later covers, the card lying the same way up (``ORIENTED``).
    Whether the scene calls that index legible is not asked: the crop shows what it shows."""
    origin = corners[0].astype(np.float64)
    basis = np.stack([corners[1] - origin, corners[3] - origin], axis=1).astype(np.float64)
    if abs(np.linalg.det(basis)) < 1e-6:
        return False
    for n, p in enumerate(placed):
        if p.card.rank.symbol != rank:
            continue
        for k in range(2):
            q = np.roll(p.quad, -2 * k, axis=0).astype(np.float64)
            middle = q[0] + INDEX_MIDDLE[0] * (q[1] - q[0]) + INDEX_MIDDLE[1] * (q[3] - q[0])
            s, t = np.linalg.solve(basis, middle - origin)
            u, v = corners[1] - corners[0], q[1] - q[0]
            if not (-0.03 <= s <= CROP[0] + 0.03 and -0.03 <= t <= CROP[1] + 0.03):
                continue
            if float(u @ v) <= ORIENTED * float(np.linalg.norm(u) * np.linalg.norm(v)):
                continue
            point = (float(middle[0]), float(middle[1]))
            if not any(cv2.pointPolygonTest(later.quad.astype(np.float32), point, False) >= 0 for later in placed[n + 1:]):
                return True
    return False


def hypothesis_samples(image: np.ndarray, placed, hypotheses: list, reader,
                       ) -> tuple[list[np.ndarray], list[int], list[float]]:
    """Verifier samples from one composite: every index corner of every hypothesis the pipeline read
    (``see(..., trace=[])``; a whole card's two, a corner hypothesis's one) whose crop reads as a rank with a suit
    pip under it, labelled 1 where it is a card's index read with its rank, else 0; and the rank's probability. The suit is not asked: a suit
    misread looks like any index (the suit reader's own confidence says how sure it is), and a book counts ranks."""
    from tabletop.vision.finder import CardQuad, warp_card
    from tabletop.vision.glyphs import FIRST_INDEX_VIEW, first_corner

    features, labels, top = [], [], []
    done: set[bytes] = set()
    for hypothesis in hypotheses:
        hung = [hypothesis.corners] if hypothesis.kind == "corner" else [hypothesis.corners,
                                                                         np.roll(hypothesis.corners, 2, axis=0)]
        for corners in hung:
            key = np.rint(corners).astype(np.int32).tobytes()
            if key in done:
                continue
            done.add(key)
            read = reader._corner(first_corner(warp_card(image, CardQuad(corners.astype(np.float32)), FIRST_INDEX_VIEW)))
            if read is None or read.suit is None:
                continue
            rank = reader.rank_model.classes[int(np.argmax(read.rank))]
            features.append(index_features(read.image, read.glyphs, read.rank, read.suit_read))
            labels.append(int(_read_right(corners, placed, rank)))
            top.append(float(read.rank.max()))
    return features, labels, top


VERIFIER_LAYOUTS = ("scattered", "touching", "overlapping", "fanned", "fanned", "book_fan", "book_pile", "book_pile",
                    "book_square", "book_row", "row")
"""Layouts the verifier is built from: cards seen at one index (fans, piles, overlaps) twice as often."""


def verifier_samples(seed_sequence: np.random.SeedSequence, count: int, model_folder: str,
                     ) -> dict[str, list]:
    """Verifier samples from ``count`` composites of the *training* faces (and rendered faces in the training fonts,
    one in four) on the *training* tables, read by the pipeline with the rank and suit readers in ``model_folder``
    and no verifier (a lone corner capped, as the hypotheses were read when the verifier was built)."""
    from pathlib import Path

    from tabletop.cards import Card
    from tabletop.vision import scenes
    from tabletop.vision.mlp import Mlp
    from tabletop.vision.pipeline import see
    from tabletop.vision.reader import Reader
    from tabletop.vision.store import RANK_FILE, SUIT_FILE

    folder = Path(model_folder)
    reader = Reader(Mlp.load(folder / RANK_FILE), Mlp.load(folder / SUIT_FILE), None)
    rng = np.random.default_rng(seed_sequence)
    pool = [c for c in Card.deck() if c not in scenes.HELD_OUT_FACES]
    out: dict[str, list] = {"x": [], "y": [], "p": []}
    for _ in range(count):
        layout = VERIFIER_LAYOUTS[int(rng.integers(len(VERIFIER_LAYOUTS)))]
        options: dict = {"split": "train", "layout": layout, "camera": ("webcam", "hd", "fullhd")[int(rng.integers(3))]}
        if rng.random() < 0.25:
            options["faces"] = "rendered"
        else:
            options["faces"], options["face_split"] = "real", "train"
            if layout in scenes.BOOK_LAYOUTS:  # four training faces laid as a book is: the three of a rank that are
                # training faces and another card (how a false claim looks), or any four, and others beside them
                chosen = [pool[i] for i in rng.choice(len(pool), int(rng.integers(4, 8)), replace=False)]
                if rng.random() < 0.5:
                    three = [c for c in pool if c.rank is chosen[0].rank]
                    chosen = three + [c for c in chosen if c.rank is not chosen[0].rank]
                options["cards"] = chosen
        c = scenes.compose(int(rng.integers(2**62)), **options)
        trace: list = []
        see(c.image, reader, trace)
        x, y, top = hypothesis_samples(c.image, c.cards, trace, reader)
        out["x"] += x
        out["y"] += y
        out["p"] += top
    return out
