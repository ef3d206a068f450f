# CPU time of processes from /proc, for the benchmark scripts (sourced, not run). Clock ticks throughout:
# ticks_to_us converts. Unlike requests/s, CPU time per request or message hardly depends on what else the machine
# runs, so the scripts report it per process to say where the cost is.

# utime + stime of one process, 0 when it is gone.
process_ticks() { # pid
  awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# PostgreSQL as a whole: the postmaster, its backends that have ended and been waited for (cutime + cstime: e.g.
# pgbench's, once its run stops), and the backends still running.
postgres_ticks() { # postmaster pid
  local pid
  { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat" 2>/dev/null
    for pid in $(pgrep -P "$1" || true); do
      process_ticks "$pid"
    done; } | awk '{ t += $1 } END { print t + 0 }'
}

# The postmaster's pid from a data directory (empty when PostgreSQL is not running).
postmaster_of() { # pgdata directory
  head -1 "$1/postmaster.pid" 2>/dev/null || true
}

ticks_per_second=$(getconf CLK_TCK)
ticks_to_us() { # ticks -> microseconds
  echo $(( $1 * 1000000 / ticks_per_second ))
}
