# Sourced by deploy/bench/startup and deploy/images/prove: the local stack's embedded PostgreSQL alone
# (deploy/bench/startup-database.java), with an encryption keyset beside it.
#   start_database <data directory> <port>   # returns once it accepts connections; sets db_pid
start_database() {
  local data=$1 port=$2
  "$JAVA_HOME/bin/java" -cp deploy/local/target/local-stack.jar deploy/bench/startup-database.java "$data" "$port" \
    > "$data.log" 2>&1 &
  db_pid=$!
  for _ in $(seq 1 600); do
    grep -q '^ready' "$data.log" && return 0
    kill -0 "$db_pid" 2>/dev/null || break
    sleep 0.2
  done
  cat "$data.log"; echo "PostgreSQL did not start" >&2; exit 1
}
