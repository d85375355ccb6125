#!/usr/bin/env bash
# Session 8, call F (main ec86aa0 + mu by Algorithm D in the thread Barrett prep instead of bit by bit,
# uncommitted at the time; binaries in .carry/s8b): the thread mulmod/sqrmod GPU suites, memcheck, and
# the mulmod benchmark at 128-1024 bits (the thread variants against mul).
exec bash "$(dirname "$0")/thread-mod-call.sh" s8f "128 256 512 1024" "128 256 512"
