"""Numbered model modules, importable by their plain names: upstream's
example packages register `tiny` for `01_tiny.py` here at import time
(importlib and sys.modules), which ptorepl follows by the numbering."""
