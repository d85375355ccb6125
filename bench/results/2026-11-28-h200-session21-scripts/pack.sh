#!/bin/bash
# Session 21 scratch: the working tree's GPU binaries packed as set NAME next to "base" (main b916ba8) in gpu-build/pending/bin.tar.xz, for quick.sh.
set -e
cd /work/main
export PATH=/usr/local/cuda/bin:$PATH CCACHE_BASEDIR=/work
cmake --build gpu-build --target bigtune-bench-mod bigtune_gpu_tests 2>&1 | grep -E " error|FAILED" || true
rm -rf /tmp/strip/$1 && mkdir -p /tmp/strip/$1
for t in bigtune_gpu_tests bigtune-bench-mod; do strip -o /tmp/strip/$1/$t $(find gpu-build/bin gpu-build/bench -name $t -type f | head -1); done
rm -rf /tmp/strip/wg2
tar -C /tmp/strip -cf - . | xz -T2 --lzma2=preset=2,dict=384MiB > gpu-build/pending/bin.tar.xz
ls /tmp/strip; du -sh gpu-build/pending
