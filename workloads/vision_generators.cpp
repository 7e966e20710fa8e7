#include "workloads/vision_generators.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "common/errors.h"
#include "workloads/kernel_sequence.h"

namespace gpucast::wl {
namespace {

// A feature map: batch x channels x height x width.
struct Map {
  double n, c, h, w;
  [[nodiscard]] double elements() const { return n * c * h * w; }
};

// Emits convolutions and their training counterparts, and keeps the count of weights and of the
// activations a backward pass must keep.
class ConvNet {
 public:
  ConvNet(const GenerateOptions& o) : o_(o), t_(o.dtype) {}

  Map conv(const std::string& name, const Map& x, double k, int r, int s, int stride, int pad) {
    Conv2dOp op;
    op.n = Count(x.n);
    op.c = Count(x.c);
    op.h = Count(x.h);
    op.w = Count(x.w);
    op.k = Count(k);
    op.r = r;
    op.s = s;
    op.stride = stride;
    op.pad = pad;
    op.dtype = t_;
    const Map y{x.n, k, double(op.p()), double(op.q())};
    transpose(name + ".input_to_nhwc", x);
    seq_.add(name, op);
    transpose(name + ".output_to_nchw", y);
    params_ += x.c * k * r * s;
    saved(x);
    if (train()) backward_.push_back([=]() {
      // dgrad: a convolution back to the input's channels; wgrad: a GEMM over the batch positions.
      Conv2dOp d = op;
      d.c = Count(k);
      d.k = Count(x.c);
      d.h = Count(y.h);
      d.w = Count(y.w);
      d.stride = 1;
      d.pad = std::min(pad, std::min(r, s) / 2);
      if (d.p() >= 1 && d.q() >= 1 && x.c >= 8) {
        transpose(name + ".dgrad.grad_to_nhwc", y);
        seq_.add(name + ".dgrad", d);
        transpose(name + ".dgrad.output_to_nchw", x);
      }
      transpose(name + ".wgrad.input_to_nhwc", x);
      transpose(name + ".wgrad.grad_to_nhwc", y);
      seq_.gemm(name + ".wgrad", k, x.c * r * s, y.n * y.h * y.w, t_);
    });
    return y;
  }

  // cuDNN's layout change around a tensor-core convolution of NCHW tensors (a tiled transpose
  // that streams the feature map once each way); nothing in channels-last or on the SIMT path.
  void transpose(const std::string& name, const Map& m) {
    if (o_.channels_last || t_ == DataType::fp32 || t_ == DataType::fp64) return;
    seq_.add(name, CopyOp{m.elements() * bytes_per_element(t_), CopyKind::d2d});
  }

  void batchnorm_relu(const std::string& name, const Map& x, bool relu = true) {
    // Training on a 16-bit channels-last activation: ATen's channels-last batch-norm kernels
    // (statistics, running-statistics update, transform; backward: the sums, then dX).
    if (train() && o_.channels_last && (t_ == DataType::bf16 || t_ == DataType::fp16)) {
      RowOp bn{RowOpKind::batchnorm, Count(x.n * x.h * x.w), Count(x.c), t_};
      bn.training = true;
      seq_.add(name, bn);
      backward_.push_back([=]() {
        RowOp b = bn;
        b.backward = true;
        seq_.add(name + ".grad", b);
      });
      if (relu) pointwise(name + ".relu", x.elements(), 1, 1);
      params_ += 2 * x.c;
      saved(x);
      return;
    }
    if (train()) {
      seq_.add(name + ".stats", RowOp{RowOpKind::reduce, Count(x.c), Count(x.n * x.h * x.w), t_});
      backward_.push_back([=]() { seq_.pointwise(name + ".grad", x.elements(), t_, 3, 8); });
    }
    // Eager BatchNorm: cast the per-channel statistics to fp32, form the scale, then the
    // transform. Channels-last indexes each element's channel (PyTorch's non-vectorized path);
    // NCHW walks contiguous planes of one channel.
    ElementwiseOp cast{Count(x.c), t_, DataType::fp32, 1, 1, 0, true};
    seq_.add(name + ".stats_to_fp32", cast);
    seq_.pointwise(name + ".scale", x.c, DataType::fp32, 2, 3);
    seq_.pointwise(name, x.elements(), t_, 1, 2, !o_.channels_last);
    if (relu) seq_.pointwise(name + ".relu", x.elements(), t_, 1, 1);
    params_ += 2 * x.c;
    saved(x);
  }

  void pointwise(const std::string& name, double elements, int inputs, double flops, bool contiguous = true) {
    seq_.pointwise(name, elements, t_, inputs, flops, contiguous);
    if (train()) backward_.push_back([=]() { seq_.pointwise(name + ".grad", elements, t_, inputs + 1, flops); });
  }

  void group_norm(const std::string& name, const Map& x, double groups) {
    seq_.norm(name, x.n * groups, x.c / groups * x.h * x.w, t_, false);
    params_ += 2 * x.c;
    saved(x);
    if (train()) backward_.push_back([=]() { seq_.pointwise(name + ".grad", x.elements(), t_, 3, 8); });
  }

  void linear(const std::string& name, double rows, double out, double in) {
    using Layout = KernelSequence::GemmLayout;
    seq_.gemm(name, rows, out, in, t_, 1, Layout::b_transposed);  // x @ W^T
    params_ += out * in;
    if (train())
      backward_.push_back([=]() {
        seq_.gemm(name + ".dgrad", rows, in, out, t_);                           // g @ W
        seq_.gemm(name + ".wgrad", in, out, rows, t_, 1, Layout::a_transposed);  // x^T @ g
      });
  }

  void attention(const std::string& name, double batch, double heads, double sq, double skv, double hd) {
    AttentionOp a;
    a.batch = Count(batch);
    a.heads = a.kv_heads = Count(heads);
    a.seq_q = Count(sq);
    a.seq_kv = Count(skv);
    a.head_dim = Count(hd);
    a.dtype = t_;
    a.backend = o_.attention_backend;
    seq_.add(name, a);
    if (train()) backward_.push_back([=]() {
      AttentionOp b = a;
      b.backward = true;
      seq_.add(name + ".grad", b);
    });
  }

  void finish(double optimizer_inputs, double optimizer_outputs) {
    if (!train()) return;
    seq_.scope("bwd.");
    for (auto it = backward_.rbegin(); it != backward_.rend(); ++it) (*it)();
    ElementwiseOp opt;
    opt.elements = Count(params_);
    opt.dtype = opt.out_dtype = DataType::fp32;
    opt.inputs = int(optimizer_inputs);
    opt.outputs = int(optimizer_outputs);
    opt.flops_per_element = 6;
    seq_.add("optimizer", opt);
  }

  KernelSequence& seq() { return seq_; }
  [[nodiscard]] bool train() const { return o_.mode == Mode::train; }
  [[nodiscard]] double params() const { return params_; }
  [[nodiscard]] double saved_bytes() const { return saved_ * bytes_per_element(t_); }
  [[nodiscard]] double largest_map_bytes() const { return largest_ * bytes_per_element(t_); }

 private:
  void saved(const Map& x) {
    saved_ += x.elements();
    largest_ = std::max(largest_, x.elements());
  }
  const GenerateOptions& o_;
  DataType t_;
  KernelSequence seq_;
  std::vector<std::function<void()>> backward_;
  double params_ = 0, saved_ = 0, largest_ = 0;
};

void check_mode(const std::string& model, const GenerateOptions& o) {
  if (o.mode == Mode::decode || o.mode == Mode::prefill)
    throw InputError(SourceLocation{}, "mode", model + " is not a language model: use --mode inference or train");
}

GeneratedModel finish_model(ConvNet& net, const std::string& name, const GenerateOptions& o, double useful_flops,
                            double optimizer_state_per_param) {
  GeneratedModel out;
  const double e = bytes_per_element(o.dtype);
  out.parameters = net.params();
  out.items = double(o.batch);
  out.items_are_tokens = false;
  out.useful_flops = useful_flops;
  auto& m = out.memory;
  m.weights = net.params() * e;
  if (o.mode == Mode::train) {
    m.gradients = net.params() * e;
    m.optimizer = net.params() * optimizer_state_per_param;
    m.activations = net.saved_bytes();
  } else {
    m.activations = 3 * net.largest_map_bytes();
  }
  m.workspace = 0.5e9 + 64e6;
  out.workload = Workload::build(name, o.launch, net.seq().take());
  return out;
}

// Sum of useful FLOPs of every GEMM, convolution and attention kernel in the forward.
double forward_flops(const std::vector<Kernel>& kernels) {
  double f = 0;
  for (const auto& k : kernels)
    if (std::holds_alternative<GemmOp>(k.op) || std::holds_alternative<Conv2dOp>(k.op) ||
        std::holds_alternative<AttentionOp>(k.op))
      f += op_flops(k.op);
  return f;
}

// The forward is in `net`: counts its useful FLOPs (before backward kernels exist), lets the net
// add the backward and optimizer step (`finish`), and packs the model; training counts three
// forwards of useful work.
GeneratedModel finish_network(ConvNet& net, const std::string& model, const GenerateOptions& o, int optimizer_reads,
                              int optimizer_writes, double optimizer_state_per_param) {
  auto& seq = net.seq();
  auto kernels = seq.take();
  const double forward = forward_flops(kernels);
  for (auto& k : kernels) seq.add(k.name, k.op);  // put them back, in order
  net.finish(optimizer_reads, optimizer_writes);
  const double useful = (o.mode == Mode::train ? 3 : 1) * forward;
  return finish_model(net, model + "-" + std::string(mode_name(o.mode)) + "-b" + std::to_string(o.batch), o, useful,
                      optimizer_state_per_param);
}

}  // namespace

GeneratedModel generate_resnet(const ResNetConfig& c, const GenerateOptions& o) {
  check_mode(c.name, o);
  ConvNet net(o);
  auto& seq = net.seq();
  Map x{double(o.batch), 3, double(c.image), double(c.image)};
  seq.scope("stem.");
  x = net.conv("conv", x, 64, 7, 7, 2, 3);
  net.batchnorm_relu("bn", x);
  x.h = std::floor((x.h + 2 - 3) / 2 + 1);
  x.w = std::floor((x.w + 2 - 3) / 2 + 1);
  seq.add("maxpool", ElementwiseOp{Count(x.elements()), o.dtype, o.dtype, 1, 1, 9, true});
  for (size_t stage = 0; stage < c.blocks.size(); ++stage) {
    const double width = 64.0 * std::pow(2.0, double(stage));
    for (int b = 0; b < c.blocks[stage]; ++b) {
      seq.scope("s" + std::to_string(stage + 1) + ".b" + std::to_string(b) + ".");
      const int stride = (b == 0 && stage > 0) ? 2 : 1;
      const Map in = x;
      Map y = net.conv("conv1", in, width, 1, 1, 1, 0);
      net.batchnorm_relu("bn1", y);
      y = net.conv("conv2", y, width, 3, 3, stride, 1);
      net.batchnorm_relu("bn2", y);
      y = net.conv("conv3", y, 4 * width, 1, 1, 1, 0);
      net.batchnorm_relu("bn3", y, false);
      if (b == 0) {
        const Map down = net.conv("downsample", in, 4 * width, 1, 1, stride, 0);
        net.batchnorm_relu("downsample_bn", down, false);
      }
      net.pointwise("residual_relu", y.elements(), 2, 2);
      x = y;
    }
  }
  seq.scope("head.");
  seq.add("avgpool", RowOp{RowOpKind::reduce, Count(x.n * x.c), Count(x.h * x.w), o.dtype});
  net.linear("fc", x.n, double(c.classes), x.c);
  // SGD with momentum: read weight, grad, momentum; write weight, momentum.
  return finish_network(net, c.name, o, 3, 2, 4);
}

GeneratedModel generate_unet2d(const UNet2DConfig& c, const GenerateOptions& o) {
  check_mode(c.name, o);
  ConvNet net(o);
  auto& seq = net.seq();
  const double n = double(o.batch);
  const double hw0 = double(c.latent);
  const double time_dim = 4.0 * double(c.channels.front());

  auto resblock = [&](const std::string& p, Map x, double cout) {
    seq.scope(p);
    net.group_norm("norm1", x, 32);
    net.pointwise("silu1", x.elements(), 1, 4);
    Map h = net.conv("conv1", x, cout, 3, 3, 1, 1);
    net.linear("time_proj", n, cout, time_dim);
    net.pointwise("add_time", h.elements(), 2, 1);
    net.group_norm("norm2", h, 32);
    net.pointwise("silu2", h.elements(), 1, 4);
    h = net.conv("conv2", h, cout, 3, 3, 1, 1);
    if (x.c != cout) net.conv("skip", x, cout, 1, 1, 1, 0);
    net.pointwise("residual", h.elements(), 2, 1);
    return h;
  };
  auto transformer = [&](const std::string& p, const Map& x) {
    seq.scope(p);
    const double tokens = x.h * x.w, ch = x.c, rows = n * tokens;
    const double heads = c.attention_heads, hd = ch / heads;
    net.group_norm("norm", x, 32);
    net.linear("proj_in", rows, ch, ch);
    seq.norm("ln1", rows, ch, o.dtype, false);
    net.linear("self_qkv", rows, 3 * ch, ch);
    net.attention("self_attention", n, heads, tokens, tokens, hd);
    net.linear("self_out", rows, ch, ch);
    net.pointwise("add1", rows * ch, 2, 1);
    seq.norm("ln2", rows, ch, o.dtype, false);
    net.linear("cross_q", rows, ch, ch);
    net.linear("cross_kv", n * c.text_tokens, 2 * ch, double(c.text_dim));
    net.attention("cross_attention", n, heads, tokens, double(c.text_tokens), hd);
    net.linear("cross_out", rows, ch, ch);
    net.pointwise("add2", rows * ch, 2, 1);
    seq.norm("ln3", rows, ch, o.dtype, false);
    net.linear("geglu", rows, 8 * ch, ch);
    net.pointwise("gelu_mul", rows * 4 * ch, 2, 12, false);
    net.linear("ff_out", rows, ch, 4 * ch);
    net.pointwise("add3", rows * ch, 2, 1);
    net.linear("proj_out", rows, ch, ch);
    net.pointwise("residual", rows * ch, 2, 1);
  };

  seq.scope("time.");
  net.linear("time_mlp1", n, time_dim, double(c.channels.front()));
  net.pointwise("time_silu", n * time_dim, 1, 4);
  net.linear("time_mlp2", n, time_dim, time_dim);
  seq.scope("");
  Map x{n, 4, hw0, hw0};
  x = net.conv("conv_in", x, double(c.channels.front()), 3, 3, 1, 1);
  std::vector<Map> skips{x};
  const size_t levels = c.channels.size();
  for (size_t i = 0; i < levels; ++i) {
    const bool attn = i + 1 < levels;
    for (int b = 0; b < 2; ++b) {
      const std::string p = "down" + std::to_string(i) + ".r" + std::to_string(b) + ".";
      x = resblock(p, x, double(c.channels[i]));
      if (attn) transformer("down" + std::to_string(i) + ".t" + std::to_string(b) + ".", x);
      skips.push_back(x);
    }
    if (i + 1 < levels) {
      seq.scope("down" + std::to_string(i) + ".");
      x = net.conv("downsample", x, x.c, 3, 3, 2, 1);
      skips.push_back(x);
    }
  }
  x = resblock("mid.r0.", x, x.c);
  transformer("mid.t.", x);
  x = resblock("mid.r1.", x, x.c);
  for (size_t j = 0; j < levels; ++j) {
    const size_t i = levels - 1 - j;
    const bool attn = i + 1 < levels;
    for (int b = 0; b < 3; ++b) {
      const Map skip = skips.back();
      skips.pop_back();
      const std::string p = "up" + std::to_string(j) + ".r" + std::to_string(b) + ".";
      seq.scope(p);
      Map cat{x.n, x.c + skip.c, x.h, x.w};
      net.pointwise("concat", cat.elements(), 1, 0, false);
      x = resblock(p, cat, double(c.channels[i]));
      if (attn) transformer("up" + std::to_string(j) + ".t" + std::to_string(b) + ".", x);
    }
    if (i > 0) {
      seq.scope("up" + std::to_string(j) + ".");
      Map up{x.n, x.c, x.h * 2, x.w * 2};
      net.pointwise("upsample_nearest", up.elements(), 1, 0, false);
      x = net.conv("upsample_conv", up, x.c, 3, 3, 1, 1);
    }
  }
  seq.scope("out.");
  net.group_norm("norm", x, 32);
  net.pointwise("silu", x.elements(), 1, 4);
  net.conv("conv_out", x, 4, 3, 3, 1, 1);
  return finish_network(net, c.name, o, 4, 3, 12);  // AdamW
}

GeneratedModel generate_unet1d(const UNet1DConfig& c, const GenerateOptions& o) {
  check_mode(c.name, o);
  ConvNet net(o);
  auto& seq = net.seq();
  const double n = double(o.batch);
  const int pad = c.kernel / 2;
  // Conv1d blocks are convolutions over a 1 x horizon image.
  auto conv_block = [&](const std::string& name, const Map& x, double cout) {
    Map y = net.conv(name + ".conv", x, cout, 1, c.kernel, 1, pad);
    net.group_norm(name + ".gn", y, 8);
    net.pointwise(name + ".mish", y.elements(), 1, 10);
    return y;
  };
  auto resblock = [&](const std::string& p, const Map& x, double cout) {
    seq.scope(p);
    Map h = conv_block("block0", x, cout);
    net.pointwise("cond_mish", n * double(c.cond_dim), 1, 10);
    net.linear("film", n, 2 * cout, double(c.cond_dim));
    net.pointwise("film_apply", h.elements(), 3, 2);
    h = conv_block("block1", h, cout);
    if (x.c != cout) net.conv("residual_conv", x, cout, 1, 1, 1, 0);
    net.pointwise("residual", h.elements(), 2, 1);
    return h;
  };
  seq.scope("step_encoder.");
  net.linear("mlp1", n, 4.0 * 256, 256);
  net.pointwise("mish", n * 4 * 256, 1, 10);
  net.linear("mlp2", n, 256, 4.0 * 256);
  Map x{n, double(c.action_dim), 1, double(c.horizon)};
  std::vector<Map> skips;
  for (size_t i = 0; i < c.channels.size(); ++i) {
    x = resblock("down" + std::to_string(i) + ".r0.", x, double(c.channels[i]));
    x = resblock("down" + std::to_string(i) + ".r1.", x, double(c.channels[i]));
    skips.push_back(x);
    if (i + 1 < c.channels.size()) {
      seq.scope("down" + std::to_string(i) + ".");
      x = net.conv("downsample", x, x.c, 1, 3, 2, 1);
    }
  }
  x = resblock("mid.r0.", x, x.c);
  x = resblock("mid.r1.", x, x.c);
  for (size_t j = 0; j + 1 < c.channels.size(); ++j) {
    const size_t i = c.channels.size() - 2 - j;
    const Map skip = skips[skips.size() - 1 - j];
    seq.scope("up" + std::to_string(j) + ".");
    Map cat{x.n, x.c + skip.c, x.h, x.w};
    net.pointwise("concat", cat.elements(), 1, 0, false);
    x = resblock("up" + std::to_string(j) + ".r0.", cat, double(c.channels[i]));
    x = resblock("up" + std::to_string(j) + ".r1.", x, double(c.channels[i]));
    seq.scope("up" + std::to_string(j) + ".");
    Map up{x.n, x.c, 1, x.w * 2};
    net.pointwise("upsample", up.elements(), 1, 0, false);
    x = net.conv("upsample_conv", up, x.c, 1, 3, 1, 1);
  }
  seq.scope("out.");
  x = conv_block("final", x, double(c.channels.front()));
  net.conv("proj", x, double(c.action_dim), 1, 1, 1, 0);
  return finish_network(net, c.name, o, 4, 3, 12);  // AdamW
}

}  // namespace gpucast::wl
