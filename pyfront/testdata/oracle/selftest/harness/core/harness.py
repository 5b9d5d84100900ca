"""The part of a PyPTO test harness the oracle plugin reads, for the
plugin's own tests: a DataType enum that names its torch dtype, TensorSpec
and a PTOTestCase base with a config holding the tolerances."""

from dataclasses import dataclass
from enum import Enum
from typing import Any

import torch
from pypto.runtime.runner import RunConfig


class DataType(Enum):
    FP32 = "fp32"
    FP16 = "fp16"
    INT32 = "int32"

    @property
    def torch_dtype(self) -> torch.dtype:
        return {DataType.FP32: torch.float32, DataType.FP16: torch.float16, DataType.INT32: torch.int32}[self]


@dataclass
class TensorSpec:
    name: str
    shape: list
    dtype: DataType
    init_value: Any = None
    is_output: bool = False


class PTOTestCase:
    def __init__(self, config=None):
        self.config = config or RunConfig()

    @property
    def tensor_specs(self):
        return self.define_tensors()

    @property
    def scalar_specs(self):
        return []
