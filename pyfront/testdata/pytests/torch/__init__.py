# A stand-in for torch so that pytest can import dtypes.py where torch is
# not installed: collection reads module-level values only.
float32 = "float32"
float16 = "float16"
int8 = "int8"
