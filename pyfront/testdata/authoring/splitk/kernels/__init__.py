"""The package's kernels."""
