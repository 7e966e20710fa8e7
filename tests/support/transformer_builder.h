#pragma once
// A two-layer Llama-shaped model small enough to generate in a test, with grouped-query attention
// (4 heads, 2 KV heads) so that every kernel family of a step appears.
#include "workloads/model_config.h"

namespace gpucast::test {

inline wl::TransformerConfig tiny_llama() {
  wl::TransformerConfig c;
  c.name = "tiny";
  c.layers = 2;
  c.d_model = 256;
  c.heads = 4;
  c.kv_heads = 2;
  c.ffn = 512;
  c.vocab = 1000;
  return c;
}

}  // namespace gpucast::test
