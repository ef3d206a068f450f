# Sourced (POSIX sh) by .ci/run, deploy/native/build and deploy/local/up: finds a GraalVM or Mandrel
# `native-image` and exports VOICE_NATIVE_KIT, its home (the directory holding bin/native-image), which the
# build reads (credential-service's native-tests profile; docs/native.md). Looks at VOICE_NATIVE_KIT,
# then GRAALVM_HOME, then `native-image` on the PATH. Returns 1 (VOICE_NATIVE_KIT unset) when there is none.

voice_native_kit_ok() {
  [ -n "$1" ] && [ -x "$1/bin/native-image" ]
}

voice_find_native_kit() {
  if [ -n "${VOICE_NATIVE_KIT:-}" ]; then
    if voice_native_kit_ok "$VOICE_NATIVE_KIT"; then
      export VOICE_NATIVE_KIT
      return 0
    fi
    echo "VOICE_NATIVE_KIT=$VOICE_NATIVE_KIT has no bin/native-image" >&2
    unset VOICE_NATIVE_KIT
    return 1
  fi
  _voice_kit_path=""
  if command -v native-image >/dev/null 2>&1; then
    # Not resolved through links: a GraalVM's bin/native-image links into lib/svm/bin.
    _voice_kit_path=$(dirname "$(dirname "$(command -v native-image)")")
  fi
  for _voice_kit in "${GRAALVM_HOME:-}" "$_voice_kit_path"; do
    if voice_native_kit_ok "$_voice_kit"; then
      VOICE_NATIVE_KIT=$_voice_kit
      export VOICE_NATIVE_KIT
      return 0
    fi
  done
  unset VOICE_NATIVE_KIT
  return 1
}
