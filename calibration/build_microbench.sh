#!/usr/bin/env bash
# Builds gpucast-microbench with nvcc alone (for GPU machines without the CMake dependencies).
# usage: calibration/build_microbench.sh [OUTPUT_DIR]   (default: build-cuda/)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../build-cuda}
mkdir -p "$out/obj"
arch=${GPUCAST_CUDA_ARCH:-90}
ls "$here"/microbench/*.cu | xargs -P 8 -I{} sh -c \
  'nvcc -O3 -std=c++17 -arch=sm_'"$arch"' -c "$1" -o '"$out"'/obj/$(basename "$1" .cu).o' _ {}
nvcc -arch=sm_"$arch" "$out"/obj/*.o -lcublasLt -o "$out/gpucast-microbench"
echo "built $out/gpucast-microbench"
