"""Boxes (x, y, w, h) in a frame, and how much two of them share."""

from __future__ import annotations

__all__ = ["Box", "intersection", "share_of_smaller", "iou"]

Box = tuple[int, int, int, int]


def intersection(a: Box, b: Box) -> int:
    """The area two boxes share (0 where they do not meet)."""
    across = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    down = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    return across * down


def share_of_smaller(a: Box, b: Box) -> float:
    """The share of the smaller of two boxes that lies in the other.

    >>> share_of_smaller((0, 0, 10, 10), (5, 0, 20, 20))
    0.5
    """
    return intersection(a, b) / max(1, min(a[2] * a[3], b[2] * b[3]))


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes.

    >>> iou((0, 0, 10, 10), (5, 0, 10, 10))
    0.3333333333333333
    """
    inter = intersection(a, b)
    return inter / max(1, a[2] * a[3] + b[2] * b[3] - inter)
