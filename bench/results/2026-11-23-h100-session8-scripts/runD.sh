#!/usr/bin/env bash
# Session 8, call D (main 874d62f + thread mulmod/sqrmod on 4 limbs, the default to 128 bits;
# uncommitted at the time; binaries in .carry/s8b): the thread mulmod/sqrmod GPU suites, memcheck, and
# the mulmod benchmark at 64 and 128 bits (the thread variants against mul).
exec bash "$(dirname "$0")/thread-mod-call.sh" s8d "64 128" "64 128"
