import pypto.language as pl

from .nowhere import SIZE
