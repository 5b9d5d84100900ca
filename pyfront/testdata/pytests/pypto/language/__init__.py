# A stand-in for PyPTO's DSL so that pytest can import test_params.py and
# collect its tests where PyPTO is not installed. Collection only evaluates
# module-level values (pl.FP32 in a parametrize list); no program is built.


class _Name:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "pl." + self.name


def __getattr__(name):
    return _Name(name)
