package dev.voiceplane.runtime.media;

import dev.voiceplane.runtime.conversation.Conversation;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The conversations this replica holds, by call id, so that call-service can reach a live call on the replica that
 * holds it (docs/voice-runtime.md, "Voicemail": the runtime gives its own address when a call starts). Anything done
 * to a conversation runs on its call's context.
 */
@ApplicationScoped
public class HeldConversations {

    private record Held(String orgId, Context context, Conversation conversation) {
    }

    private final Map<UUID, Held> calls = new ConcurrentHashMap<>();

    /** Registers a started call; the answer unregisters it. */
    Runnable add(UUID callId, String orgId, Context context, Conversation conversation) {
        Held held = new Held(orgId, context, conversation);
        calls.put(callId, held);
        return () -> calls.remove(callId, held);
    }

    /** Runs {@code action} on the call's context when this replica holds the call for that organisation. */
    public boolean onCall(String orgId, UUID callId, Consumer<Conversation> action) {
        Held held = calls.get(callId);
        if (held == null || !held.orgId().equals(orgId)) {
            return false;
        }
        held.context().runOnContext(ignored -> action.accept(held.conversation()));
        return true;
    }
}
