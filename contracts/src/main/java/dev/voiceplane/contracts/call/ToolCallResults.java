package dev.voiceplane.contracts.call;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * What became of each call of a {@link ToolCallsRequest}, in its order: the server's {@code result} (as text: a
 * JSON result is written out), or {@code error} saying why there is none (no server, a refused target, an error
 * status, no answer within the deadline, an answer without this call's result).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolCallResults(List<Result> results) {

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Result(String toolCallId, String name, String result, String error) {
    }
}
