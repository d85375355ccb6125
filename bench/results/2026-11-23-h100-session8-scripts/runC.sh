#!/usr/bin/env bash
# Session 8, call C (main 874d62f + thread mulmod/sqrmod on 2 and 4 limbs, their default at 64 / 128
# bits, uncommitted at the time; binaries in .carry/s8b): the thread mulmod/sqrmod GPU suites, memcheck, and
# the mulmod benchmark at 64-512 bits (the thread variants against mul).
exec bash "$(dirname "$0")/thread-mod-call.sh" s8c "64 128 256 512" "64 128 256"
