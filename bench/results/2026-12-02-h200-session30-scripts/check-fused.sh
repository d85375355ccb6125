set -u
mkdir -p /tmp/p && xz -dc gpu-build/pending/bin.tar.xz | tar -C /tmp/p -xf -
t=/tmp/p/fused/bigtune_gpu_tests; cd $OUT
run() { local name=$1 s=$(date +%s); shift; BIGTUNE_DB=$(mktemp -d)/t.db timeout 110 "$@" >$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >>steps.txt; }
run tests $t --gtest_brief=1 --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:KeptModulus.*' &
run memcheck compute-sanitizer --tool memcheck --print-limit 20 $t --gtest_brief=1 --gtest_filter='BarrettVsGmp.SanitizerSized:BarrettVsGmp.TensorCoreMultiGroupLaunches' &
run racecheck compute-sanitizer --tool racecheck --print-limit 20 $t --gtest_brief=1 --gtest_filter='BarrettVsGmp.SanitizerSized' &
wait
cat steps.txt; grep -hE "mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|Invalid" *.log | sort | uniq -c
