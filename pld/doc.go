// Package pld is the Go mirror of PyPTO's distributed DSL
// (pypto.language.distributed): window buffers, distributed tensors, signals,
// one-sided remote memory access and collectives.
//
// Ranks talk through a symmetric window buffer that the host orchestrator
// allocates (AllocWindowBuffer, bound with f.Let so the buffer takes its
// name) and views as DistributedTensors (Window). Kernels signal each other
// with Notify/Wait, move data with RemoteLoad/RemoteStore/Put/Get, and call
// collectives such as AllReduce, which compiler passes lower to those
// primitives.
//
// Like package pl, calls panic with a positioned error on misuse; the package
// is Yaegi-safe.
package pld
