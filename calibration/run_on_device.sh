#!/usr/bin/env bash
# Measures the GPU this runs on: builds and runs the CUDA microbenchmarks and the framework
# overhead probe (calibration set), then the validation suite and the end-to-end model runs
# (validation set). Writes everything under $OUT (default ./device-out). Leaves clocks and
# settings alone. Used through the device tool; see docs/accuracy.md for how results were used.
#
# usage: calibration/run_on_device.sh [--parts microbench,framework,e2e,suite] [--quick]
set -u
OUT=${OUT:-device-out}
mkdir -p "$OUT"
parts="microbench,framework,e2e,suite"
quick=""
while [ $# -gt 0 ]; do
  case "$1" in
    --parts) parts="$2"; shift 2 ;;
    --quick) quick="--quick"; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
log="$OUT/run.log"
exec > >(tee -a "$log") 2>&1
echo "== $(date -u +%FT%TZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv
nvcc --version | tail -1
python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__)'

nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu --format=csv -lms 500 \
  > "$OUT/smi.csv" 2>/dev/null &
smi_pid=$!

if [[ ",$parts," == *",microbench,"* ]]; then
  build=/tmp/gpucast-mb && mkdir -p $build
  ls "$here"/microbench/*.cu | xargs -P 8 -I{} sh -c \
    'nvcc -O3 -std=c++17 -arch=sm_90 -c "$1" -o '"$build"'/$(basename "$1" .cu).o' _ {}
  nvcc -arch=sm_90 $build/*.o -lcublasLt -o $build/gpucast-microbench || echo "microbench build FAILED"
  cuobjdump --dump-sass $build/compute_bench.o 2>/dev/null | grep -oE "HMMA\.[0-9A-Z.]+|MUFU\.EX2|DFMA|FFMA" | sort | uniq -c
  timeout 300 $build/gpucast-microbench $quick > "$OUT/microbench.json" || echo "microbench FAILED rc=$?"
fi
if [[ ",$parts," == *",framework,"* ]]; then
  timeout 120 python3 "$here/microbench/framework_overhead.py" > "$OUT/framework.json" || echo "framework FAILED"
fi
if [[ ",$parts," == *",e2e,"* ]]; then
  PYTHONUNBUFFERED=1 timeout 240 python3 "$here/validation/e2e.py" --out "$OUT/e2e.json" || echo "e2e FAILED"
fi
if [[ ",$parts," == *",suite,"* ]]; then
  PYTHONUNBUFFERED=1 timeout 420 python3 "$here/validation/suite.py" --out "$OUT/validation.json" $quick \
    || echo "suite FAILED rc=$?"
fi
kill $smi_pid 2>/dev/null
echo "== done $(date -u +%FT%TZ)"
ls -la "$OUT"
