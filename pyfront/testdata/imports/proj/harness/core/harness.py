"""The project's test harness: plain Python (no PyPTO). ptorepl reads its
constants (the platforms tests are parametrized over); its classes stay
opaque names, as torch's do."""

from abc import ABC
from enum import Enum

import pytest


SIM_PLATFORM_IDS: tuple[str, ...] = ("a2a3sim",)
ONBOARD_PLATFORM_IDS: tuple[str, ...] = ("a2a3", "a5")
PLATFORMS = [pytest.param(p, id=p) for p in (*SIM_PLATFORM_IDS, *ONBOARD_PLATFORM_IDS) if p != "a5"]


class DataType(Enum):
    FP32 = "fp32"
    FP16 = "fp16"


class PTOTestCase(ABC):
    def __init__(self, dtype=DataType.FP32):
        self.dtype = dtype
