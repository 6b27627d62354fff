"""Options and limits shared by the mail and news sources.

Strategy: one frozen record of caller choices, so every layer (splitter, MIME walker,
folder reader) reads the same values, and the limits that bound memory have names.
"""

from __future__ import annotations

from .._record import record

DEFAULT_MAX_MESSAGE_BYTES = 64 << 20
"""Largest message kept whole (64 MiB). Bytes beyond it are counted and skipped, and the
message is processed truncated with a ``message-truncated`` defect. It bounds the memory of
every mail source: one message at a time, at most this many bytes."""

DEFAULT_MAX_HEADER_BYTES = 256 << 10
"""Largest header block (256 KiB). Header lines beyond it are dropped, with a
``header-too-large`` defect; the body is still read."""

MAX_CONTEXT_CHARS = 998
"""Longest header value copied into a message context (RFC 5322 §2.1.1's line limit);
longer values are cut there."""


@record
class MailOptions:
    """What the mail and news sources read, and the limits they keep to."""

    include_attachments: bool = False
    """Also scan non-text parts (``application/*``, ``image/*``...), decoded as text."""
    scan_headers: bool = False
    """Also yield one unit per message with its URL-bearing headers (``List-*``,
    ``Archived-At``, ``Link``), content type ``header``, part ``0``."""
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    """Cap on the bytes of one message; see :data:`DEFAULT_MAX_MESSAGE_BYTES`."""
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES
    """Cap on the bytes of one header block; see :data:`DEFAULT_MAX_HEADER_BYTES`."""
