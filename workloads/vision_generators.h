#pragma once
// Convolutional models as PyTorch runs them (channels-last): ResNet-style CNNs and diffusion
// U-Nets (Stable Diffusion 1.5's 2-D U-Net, Diffusion Policy's 1-D temporal U-Net).
#include "workloads/generate.h"

namespace gpucast::wl {

[[nodiscard]] GeneratedModel generate_resnet(const ResNetConfig& c, const GenerateOptions& o);
[[nodiscard]] GeneratedModel generate_unet2d(const UNet2DConfig& c, const GenerateOptions& o);
[[nodiscard]] GeneratedModel generate_unet1d(const UNet1DConfig& c, const GenerateOptions& o);

}  // namespace gpucast::wl
