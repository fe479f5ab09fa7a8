"""One JSON object per output line, whatever text it carries.

JSON lets U+2028, U+2029 and U+0085 stand unescaped inside strings, but many line readers
(Python's ``str.splitlines``, JavaScript before ES2019) break lines there. They are escaped, so
an event always stays on its one line; everything else is printed as it is (UTF-8).

>>> json_line({"text": "a\\u2028b"})
'{"text": "a\\\\u2028b"}'
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["json_line"]

_LINE_BREAKS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


def json_line(value: Any) -> str:
    """``value`` as JSON on one line (no raw line or paragraph separators)."""
    text = json.dumps(value, ensure_ascii=False)
    for char, escaped in _LINE_BREAKS.items():
        if char in text:
            text = text.replace(char, escaped)
    return text
