package dev.voiceplane.runtime.audio;

import org.graalvm.nativeimage.c.function.CFunction;

/**
 * Gives the C heap's free memory back to the system, in the native executable: loading the Silero model through ONNX
 * Runtime frees about 5 MiB of C heap (the model's parse), which glibc keeps, because freeing one large block raises
 * its trim threshold for the rest of the process. One {@code malloc_trim(0)} after the load returns it (idle resident
 * memory 104 → 99 MiB; docs/native.md, "voice-runtime"). On the JVM it does nothing: there the JVM's own heap dwarfs
 * it, and the C function is not linked.
 */
final class NativeMemory {

    private NativeMemory() {
    }

    /**
     * Whether this is the native executable running: GraalVM's {@code ImageInfo.inImageRuntimeCode()}, read from the
     * property it reads, as that class is not on the JVM service's class path ({@code provided}).
     */
    static boolean inExecutable() {
        return "runtime".equals(System.getProperty("org.graalvm.nativeimage.imagecode"));
    }

    /** Returns whether memory was given back (always false on the JVM). */
    static boolean trim() {
        return inExecutable() && mallocTrim(0) == 1;
    }

    /** glibc: {@code int malloc_trim(size_t pad)}, 1 when memory was released. */
    @CFunction("malloc_trim")
    private static native int mallocTrim(long pad);
}
