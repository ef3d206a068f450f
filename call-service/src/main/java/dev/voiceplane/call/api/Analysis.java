package dev.voiceplane.call.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** {@code call.analysis}: what the assistant's analysisPlan produced (each part absent when it could not be made). */
@RegisterForReflection
public record Analysis(String summary, String structuredData, String successEvaluation) {
}
