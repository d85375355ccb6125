#!/usr/bin/env bash
# Session 8, call E (main 3df0610 + the thread Barrett mulmod/sqrmod for a shared odd modulus with a
# nonzero top limb, 4-16 limbs, uncommitted at the time; binaries in .carry/s8b): the thread mulmod/sqrmod GPU suites, memcheck, and
# the mulmod benchmark at 128-1024 bits (the thread variants against mul).
exec bash "$(dirname "$0")/thread-mod-call.sh" s8e "128 256 512 1024" "128 256 512"
