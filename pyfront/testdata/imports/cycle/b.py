from .a import N

SIZE = 64
