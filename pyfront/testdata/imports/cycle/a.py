import pypto.language as pl

from .b import SIZE

N = SIZE
