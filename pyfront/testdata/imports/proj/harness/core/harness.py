"""The project's test harness: plain Python (no PyPTO), which ptorepl
leaves opaque, as it leaves torch."""

from abc import ABC
from enum import Enum


class DataType(Enum):
    FP32 = "fp32"
    FP16 = "fp16"


class PTOTestCase(ABC):
    def __init__(self, dtype=DataType.FP32):
        self.dtype = dtype
