"""Sources: the only code in urlsift that sees bytes and files.

Each source turns a path or stream into :class:`~urlsift.TextUnit` objects: decoded text in
chunks, with the origin it came from. Everything below (scanner, rejoiner, validator) works
on text only.

Where each question is decided, one module each (a path becomes messages, top to bottom;
a message becomes text units, from :mod:`.parts` down):

* :mod:`.archive`: which reader a path takes (text, mbox, one message, folder), and whole
  or streamed for a single message.
* :mod:`.kinds`: what a path holds (text, mail, news, mbox, Maildir, MH, news spool) and
  the order of a folder's message files.
* :mod:`.compress`: how stored bytes become decompressed bytes (gzip, bzip2, xz by magic).
* :mod:`.reading`: how an opened stream is read in blocks and counted (``ArchiveStats``).
* :mod:`.mbox`: where an mbox or MMDF archive's messages begin and end.
* :mod:`.streamed`: whether a long single message is read in two passes, and how.
* :mod:`.parts`: which parts of a message are scanned, their numbers, text and defects.
* :mod:`.headers`: where the header block ends, which fields are read, what they say.
* :mod:`.parse`: what the stdlib's feed parser is given, for the same ``Message``.
* :mod:`.transfer`: large base64 and quoted-printable bodies decoded in slices.
* :mod:`.charsets`: which charset a part's bytes are decoded with, whole or streamed.
* :mod:`.htmltext` (with :mod:`.htmltokens`, :mod:`.css`), :mod:`.flowed`: the text of
  HTML and ``format=flowed`` parts.
* :mod:`.text`: plain text files, decoded losslessly; :mod:`.tree`: folders of mixed files.
* :mod:`.options`: the caller's choices and the caps.
"""

BINARY_SNIFF_BYTES = 8192
"""A file with a NUL byte among its first this many (decompressed) bytes is binary: lint
and scan skip it in folders. (Here, where every source module can read it without
importing another: :func:`.tree.is_binary` needs it, and :mod:`.walk` brings pathlib.)"""
