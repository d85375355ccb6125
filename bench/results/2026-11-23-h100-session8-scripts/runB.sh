#!/usr/bin/env bash
# Session 8, call B (main + the thread mulmod fast path for a shared odd modulus, uncommitted at the
# time; binaries in .carry/s8b): the thread-family mulmod/sqrmod GPU suites, memcheck on them, and
# the mulmod benchmark at 64-2048 bits (the thread Montgomery variants against mul).
exec bash "$(dirname "$0")/thread-mod-call.sh" s8b "64 128 256 512 1024 2048" "256 512 1024 2048"
