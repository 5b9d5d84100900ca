"""Data types as upstream's test harness defines them: an Enum whose
property maps a member to its torch dtype, beside enums pytest names by
value."""

from enum import Enum, IntEnum

import torch


class DataType(Enum):
    FP32 = "fp32"
    FP16 = "fp16"
    INT8 = "int8"

    @property
    def torch_dtype(self):
        mapping = {
            DataType.FP32: torch.float32,
            DataType.FP16: torch.float16,
        }
        if self in mapping:
            return mapping[self]
        return torch.int8


class Level(IntEnum):
    LOW = 1
    HIGH = 2


class Mode(str, Enum):
    FAST = "fast"
    EXACT = "exact"
