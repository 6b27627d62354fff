"""Sources: the only code in urlsift that sees bytes and files.

Each source turns a path or stream into :class:`~urlsift.TextUnit` objects: decoded text in
chunks, with the origin it came from. Everything below (scanner, rejoiner, validator) works
on text only.
"""
