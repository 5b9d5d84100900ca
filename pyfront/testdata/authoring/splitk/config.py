"""Shapes of the split-K package: one file of constants the kernels share,
as upstream's model examples keep theirs."""

M = 16
K = 256
N = 64
K_CHUNK = 64
N_CHUNK = 32
