#!/usr/bin/env bash
# Session 8, call H (main 062eb57 + bench_mod timing the default plan's mulmod variant even where
# its limbs oversize the operands, uncommitted at the time; binaries in .carry/s8b): the thread suites
# again and the mulmod / sqrmod benchmark at 64-512 bits with the 64-bit default (4 limbs) timed.
exec bash "$(dirname "$0")/thread-mod-call.sh" s8h "64 128 256 512" "64 128 256 512"
