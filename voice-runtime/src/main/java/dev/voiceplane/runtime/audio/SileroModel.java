package dev.voiceplane.runtime.audio;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Silero VAD v5 through ONNX Runtime: the probability that a window of audio is speech, for many streams in one
 * inference. The model's inputs take a batch dimension: {@code input[batch, context + window]} (samples scaled to
 * [-1, 1], each window preceded by the last {@code context} samples of the stream's previous one),
 * {@code state[2, batch, 128]} (the recurrent state each stream carries from window to window) and {@code sr} (a
 * scalar int64, 8000 or 16000); outputs {@code output[batch, 1]} and {@code stateN}. A window is 256 samples plus 32
 * of context at 8 kHz (32 ms), 512 plus 64 at 16 kHz.
 *
 * <p>The model file ({@value #RESOURCE}) is fetched by the build and packed in the jar; nothing is downloaded when the
 * runtime runs. A native executable carries no copy of ONNX Runtime's libraries: it loads them from its own directory
 * ({@link #librariesBesideExecutable()}). One intra-op thread: the batch, not the session, is what makes it cheap per
 * call. Not thread-safe: the VAD thread alone uses it.
 */
public final class SileroModel implements AutoCloseable {

    public static final String RESOURCE = "/dev/voiceplane/runtime/audio/silero_vad_v5.onnx";
    /** ONNX Runtime's own setting: the directory it loads its libraries from, instead of unpacking its jar's. */
    static final String NATIVE_PATH = "onnxruntime.native.path";
    /** Floats of one stream's recurrent state (2 × 128). */
    public static final int STATE = 2 * 128;

    private final OrtEnvironment environment;
    private final OrtSession session;
    private final OnnxTensor rate8k;
    private final OnnxTensor rate16k;
    private FloatBuffer input = FloatBuffer.allocate(0);
    private FloatBuffer state = FloatBuffer.allocate(0);

    private SileroModel(OrtEnvironment environment, OrtSession session) throws OrtException {
        this.environment = environment;
        this.session = session;
        this.rate8k = OnnxTensor.createTensor(environment, LongBuffer.wrap(new long[] {8000}), new long[0]);
        this.rate16k = OnnxTensor.createTensor(environment, LongBuffer.wrap(new long[] {16000}), new long[0]);
    }

    /** Loads the model from the jar (ONNX Runtime extracts and loads its native library on first use). */
    public static SileroModel load() {
        byte[] model;
        try (InputStream in = SileroModel.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the Silero VAD model " + RESOURCE + " is not on the class path "
                        + "(the build fetches it: voice-runtime/src/build/fetch-vad-model)");
            }
            model = in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("the Silero VAD model could not be read: " + e.getMessage(), e);
        }
        librariesBesideExecutable();
        try {
            OrtEnvironment environment = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            SileroModel loaded = new SileroModel(environment, environment.createSession(model, options));
            NativeMemory.trim();
            return loaded;
        } catch (OrtException e) {
            throw new IllegalStateException("the Silero VAD model could not be loaded: " + e.getMessage(), e);
        }
    }

    /**
     * In a native executable, points ONNX Runtime at its libraries beside the executable ({@code libonnxruntime.so},
     * {@code libonnxruntime4j_jni.so}: the build unpacks them into {@code target/} next to it, and the native image
     * holds them in its directory). On the JVM it unpacks them from its jar to a temporary directory at each start; an
     * executable that did the same would carry 16 MB of them as resources, read them (resident) and write them out at
     * every start (docs/native.md, "voice-runtime"). A directory set with {@value #NATIVE_PATH} is kept.
     */
    static void librariesBesideExecutable() {
        if (!NativeMemory.inExecutable() || System.getProperty(NATIVE_PATH) != null) {
            return;
        }
        Path directory;
        try {
            directory = Path.of("/proc/self/exe").toRealPath().getParent();
        } catch (IOException e) {
            throw new IllegalStateException("the executable's directory could not be read: " + e.getMessage(), e);
        }
        for (String library : new String[] {"onnxruntime", "onnxruntime4j_jni"}) {
            if (!Files.isRegularFile(directory.resolve(System.mapLibraryName(library)))) {
                throw new IllegalStateException("ONNX Runtime's library " + System.mapLibraryName(library)
                        + " is not beside the executable in " + directory + " (the build puts it there; or set -D"
                        + NATIVE_PATH + " to its directory)");
            }
        }
        System.setProperty(NATIVE_PATH, directory.toString());
    }

    /** Samples of one window at {@code sampleRate}: 256 at 8 kHz, 512 at 16 kHz. */
    public static int window(int sampleRate) {
        return sampleRate == 8000 ? 256 : 512;
    }

    /** Samples of context before each window: 32 at 8 kHz, 64 at 16 kHz. */
    public static int context(int sampleRate) {
        return sampleRate == 8000 ? 32 : 64;
    }

    /**
     * One inference over {@code batch} streams at {@code sampleRate}: {@code inputs[i]} is stream i's context and
     * window ({@code context + window} floats), {@code states[i]} its state ({@link #STATE} floats, replaced by the
     * new state). Returns each stream's speech probability.
     */
    public float[] run(int sampleRate, float[][] inputs, float[][] states, int batch) {
        int width = context(sampleRate) + window(sampleRate);
        FloatBuffer in = buffer(input, batch * width);
        input = in;
        for (int i = 0; i < batch; i++) {
            in.put(i * width, inputs[i], 0, width);
        }
        FloatBuffer st = buffer(state, batch * STATE);
        state = st;
        // The model's state is [2][batch][128]; a stream keeps its two layers side by side.
        for (int i = 0; i < batch; i++) {
            st.put(i * 128, states[i], 0, 128);
            st.put((batch + i) * 128, states[i], 128, 128);
        }
        try (OnnxTensor inputTensor = OnnxTensor.createTensor(environment, in.slice(0, batch * width),
                new long[] {batch, width});
                OnnxTensor stateTensor = OnnxTensor.createTensor(environment, st.slice(0, batch * STATE),
                        new long[] {2, batch, 128});
                OrtSession.Result result = session.run(Map.of("input", inputTensor, "state", stateTensor,
                        "sr", sampleRate == 8000 ? rate8k : rate16k))) {
            FloatBuffer output = ((OnnxTensor) result.get("output").orElseThrow()).getFloatBuffer();
            FloatBuffer next = ((OnnxTensor) result.get("stateN").orElseThrow()).getFloatBuffer();
            float[] probabilities = new float[batch];
            for (int i = 0; i < batch; i++) {
                probabilities[i] = output.get(i);
                next.get(i * 128, states[i], 0, 128);
                next.get((batch + i) * 128, states[i], 128, 128);
            }
            return probabilities;
        } catch (OrtException e) {
            throw new IllegalStateException("Silero VAD inference failed: " + e.getMessage(), e);
        }
    }

    /** A direct buffer of at least {@code floats}, reused across inferences (ONNX Runtime reads it in place). */
    private static FloatBuffer buffer(FloatBuffer current, int floats) {
        if (current.capacity() >= floats && current.isDirect()) {
            return current;
        }
        return ByteBuffer.allocateDirect(Math.max(floats, current.capacity() * 2) * Float.BYTES)
                .order(ByteOrder.nativeOrder()).asFloatBuffer();
    }

    @Override
    public void close() {
        try {
            rate8k.close();
            rate16k.close();
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException(e);
        }
    }
}
