# Sourced (POSIX sh) by ./mvnw, .ci/run and deploy/local/up: points JAVA_HOME at a JDK >= 21.
# Keeps a JAVA_HOME that is already new enough; otherwise tries `javac` on the PATH and the usual
# JVM directories, newest first. Returns 1, with a message, when there is none.

voice_java_major() {
  # The major version of the java binary $1 (17, 21, 25, ...): from the JDK's release file (JAVA_VERSION="25.0.3"),
  # which every JDK since 9 has, without starting a JVM (about 0.1 s each); else from the JVM itself.
  _voice_release="$(dirname "$(dirname "$1")")/release"
  if [ -f "$_voice_release" ]; then
    _voice_version=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$_voice_release")
    if [ -n "$_voice_version" ] && [ "$_voice_version" != 1 ]; then
      echo "$_voice_version"
      return 0
    fi
  fi
  "$1" -XshowSettings:properties -version 2>&1 \
    | awk -F'= ' '/java.specification.version/ { split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit }'
}

voice_jdk_ok() {
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
  _voice_major=$(voice_java_major "$1/bin/java")
  [ -n "$_voice_major" ] && [ "$_voice_major" -ge 21 ] 2>/dev/null
}

voice_find_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && voice_jdk_ok "$JAVA_HOME"; then
    return 0
  fi
  _voice_path_jdk=""
  if command -v javac >/dev/null 2>&1; then
    _voice_path_jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
  fi
  for _voice_dir in "$_voice_path_jdk" $(ls -d /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* /opt/jdk* \
      "${HOME:-/nonexistent}"/.sdkman/candidates/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home \
      2>/dev/null | sort -rV); do
    if [ -n "$_voice_dir" ] && voice_jdk_ok "$_voice_dir"; then
      JAVA_HOME="$_voice_dir"
      PATH="$JAVA_HOME/bin:$PATH"
      export JAVA_HOME PATH
      return 0
    fi
  done
  echo "voiceplane needs a JDK 21 or newer and found none (looked at JAVA_HOME, the PATH and /usr/lib/jvm)." >&2
  echo "Install one (for example: apt-get install openjdk-21-jdk-headless) or set JAVA_HOME." >&2
  return 1
}
