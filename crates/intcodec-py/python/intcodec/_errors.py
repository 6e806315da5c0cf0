"""The exception raised on malformed input (kept apart from the extension
module so that the extension can import it without an import cycle)."""

from typing import Optional

__all__ = ["DecodeError"]


class DecodeError(ValueError):
    """Malformed or truncated encoded input.

    Attributes:
        offset: the byte offset in the input where decoding failed (for a
            count too large for the input, the input's length).
        index: the index of the value being decoded, when known.
        kind: the core's error kind (``"Truncated"``, ``"Overlong"``,
            ``"Overflow"``, ``"Malformed"``, ...).
    """

    def __init__(self, message: str, offset: int, index: Optional[int], kind: str) -> None:
        super().__init__(message, offset, index, kind)
        self.offset = offset
        self.index = index
        self.kind = kind

    def __str__(self) -> str:
        return str(self.args[0])
