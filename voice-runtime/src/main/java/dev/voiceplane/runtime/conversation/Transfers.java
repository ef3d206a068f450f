package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ProviderSet;
import io.vertx.core.Future;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The {@code transferCall} tool of one call (docs/voice-runtime.md, "Transfers and squads"): the model is offered the
 * tool's {@code destinations} (for a squad member, also its {@code assistantDestinations}, see
 * {@link SquadMember#withHandOffs}) by name, and a call of it
 *
 * <ul>
 *   <li>to a <b>number</b>: speaks the destination's {@code message}; once it has played, call-service has the carrier
 *       call redirected (it records {@code forwarding} with {@code forwardedPhoneNumber}), and the call ends
 *       {@code assistant-forwarded-call}. A refused transfer is told to the model, which tells the caller; a web call
 *       has no carrier call, so the model is told at once that it cannot be transferred to a number.</li>
 *   <li>to an <b>assistant</b> of the squad: speaks the {@code message}; once it has played, the conversation goes on
 *       with that member: its assistant (overrides applied), its prompt before the conversation so far, its own
 *       model, voice and transcriber (opened before the old one is closed, on the same media socket: no audio is
 *       dropped), and its {@code firstMessage} per its {@code firstMessageMode}. The transcript shows a
 *       {@code system} line naming the member.</li>
 * </ul>
 *
 * The turn's end is caught here: the tool ends its turn with {@link #FORWARDED} or {@link #HAND_OFF}, and the
 * conversation hands that end to {@link #intercepts} before it would finish the call. Everything runs on the call's
 * context; the services answer there.
 */
public final class Transfers implements ToolRunner {

    private static final Logger LOG = Logger.getLogger(Transfers.class);
    public static final String FORWARDED = "assistant-forwarded-call";
    /** The end of a hand-off's turn: caught by {@link #intercepts}, never reported. */
    static final String HAND_OFF = "squad-hand-off";

    /** What a transfer needs of the runtime; each answer completes on the call's context. */
    public interface Services {
        /** A member's providers with the organisation's keys; fails saying why (an unsupported provider, no key). */
        Future<ProviderSet> open(CallPlan plan);

        /** Has call-service redirect the carrier call to {@code number}; fails saying why it was not. */
        Future<Void> transfer(String number);
    }

    /** What a transfer does to the conversation (its hooks). */
    interface Host {
        /** Goes on with {@code next}: its prompt, its providers, its first message. */
        void switchTo(CallPlan next, ProviderSet providers);

        /** Ends the call now (after a transfer: the reason is not caught again). */
        void finish(String reason, boolean closeChannel);

        /** No new turn and no timeout while a transfer is in flight ({@code false}: the conversation goes on). */
        void hold(boolean held);

        /** Asks the model again, {@code note} added to its context as a system message (a transfer that failed). */
        void askAgain(String note);

        /** A transcript line. */
        void report(String role, String text);
    }

    private enum State { IDLE, SPEAKING, TRANSFERRING, DONE }

    private final Services services;
    private final List<SquadMember> squad;
    private final boolean webCall;
    private Host host;
    private String current;
    private State state = State.IDLE;
    private TransferDestination pending;
    private SquadMember next;
    private Future<ProviderSet> opening;
    private String heldReason;
    private boolean heldClose;

    /** {@code services} null: no transfers in this call (the tool is not offered). */
    public Transfers(CallPlan plan, Services services) {
        this.services = services;
        this.squad = plan.squad();
        this.webCall = "webCall".equals(plan.callType());
        this.current = squad.isEmpty() ? null : squad.getFirst().name();
    }

    void attach(Host host) {
        this.host = host;
    }

    /**
     * The conversation without the current member's prompt (the first messages of the history, as its plan gave
     * them): what the next member hears after its own prompt.
     */
    static List<ChatMessage> conversationSoFar(List<ChatMessage> history, CallPlan current) {
        int prompt = Math.min(current.model().messages().size(), history.size());
        return new java.util.ArrayList<>(history.subList(prompt, history.size()));
    }

    // ---- the tool ------------------------------------------------------------------------------------------------

    @Override
    public ObjectNode function(JsonNode tool) {
        List<TransferDestination> destinations = TransferDestination.readAll(tool.path("destinations"));
        if (services == null || destinations.isEmpty()) {
            return null;
        }
        ObjectNode parameters = JsonNodeFactory.instance.objectNode().put("type", "object");
        ObjectNode destination = parameters.putObject("properties").putObject("destination").put("type", "string");
        ArrayNode names = destination.putArray("enum");
        destinations.forEach(candidate -> names.add(candidate.name()));
        destination.put("description", "Where to transfer the call.");
        parameters.putArray("required").add("destination");
        String description = "Transfers the call. Destinations: " + destinations.stream()
                .map(candidate -> candidate.name() + (candidate.toNumber() ? " (a phone number)" : " (an assistant)")
                        + (candidate.description() == null ? "" : ": " + candidate.description()))
                .collect(Collectors.joining("; ")) + ".";
        return ToolRunner.declared(tool, "transferCall", description, parameters);
    }

    @Override
    public void run(Call call) {
        List<TransferDestination> destinations = TransferDestination.readAll(call.tool().path("destinations"));
        String asked = call.arguments().path("destination").asText("").trim();
        Optional<TransferDestination> found = destinations.stream()
                .filter(candidate -> candidate.name().equalsIgnoreCase(asked)).findFirst();
        if (found.isEmpty() && asked.isEmpty() && destinations.size() == 1) {
            found = Optional.of(destinations.getFirst());
        }
        if (found.isEmpty()) {
            call.fail("there is no destination \"" + asked + "\"; the destinations are: "
                    + destinations.stream().map(TransferDestination::name).collect(Collectors.joining(", ")));
            return;
        }
        if (state != State.IDLE) {
            call.fail("a transfer is already under way");
            return;
        }
        TransferDestination destination = found.get();
        if (destination.toNumber()) {
            if (webCall) {
                call.fail("this is a web call: it has no phone line, so it cannot be transferred to a phone number");
                return;
            }
            begin(call, destination);
            call.endCall(FORWARDED);
            call.answer("The call is being transferred to " + destination.number() + ".");
            return;
        }
        Optional<SquadMember> member = squad.stream()
                .filter(candidate -> candidate.name() != null
                        && candidate.name().toLowerCase(Locale.ROOT).equals(destination.assistantName().toLowerCase(Locale.ROOT)))
                .findFirst();
        if (member.isEmpty()) {
            call.fail("no assistant of this squad is named \"" + destination.assistantName() + "\"");
            return;
        }
        if (member.get().name().equals(current)) {
            call.fail("the caller is talking to " + current + " already");
            return;
        }
        next = member.get();
        // Opened while the message plays: the member's keys and providers are ready when it has.
        opening = services.open(next.plan());
        begin(call, destination);
        call.endCall(HAND_OFF);
        call.answer("The call is being handed to " + next.name() + ".");
    }

    private void begin(Call call, TransferDestination destination) {
        state = State.SPEAKING;
        pending = destination;
        if (destination.message() != null) {
            call.say(destination.message());
        }
    }

    // ---- the turn's end ------------------------------------------------------------------------------------------

    /**
     * Called by the conversation before it finishes the call with {@code reason}: true when the transfer takes it
     * over (the transfer's own end of turn, or a hang-up or timeout while a transfer is in flight, which is held
     * until the transfer's outcome).
     */
    boolean intercepts(String reason, boolean closeChannel) {
        if (state == State.DONE || state == State.IDLE) {
            return false;
        }
        if (state == State.TRANSFERRING) {
            if (heldReason == null) {
                heldReason = reason;
                heldClose = closeChannel;
            }
            return true;
        }
        if (FORWARDED.equals(reason) && pending != null && pending.toNumber()) {
            transferToNumber(pending.number());
            return true;
        }
        if (HAND_OFF.equals(reason) && next != null) {
            handOff();
            return true;
        }
        // Anything else while the message plays (the caller hung up): the transfer is moot.
        state = State.DONE;
        return false;
    }

    private void transferToNumber(String number) {
        state = State.TRANSFERRING;
        host.hold(true);
        services.transfer(number).onComplete(done -> {
            if (done.succeeded()) {
                state = State.DONE;
                LOG.infof("call transferred to a phone number");
                host.finish(FORWARDED, true);
                return;
            }
            failed("the transfer to " + number + " failed: " + done.cause().getMessage());
        });
    }

    private void handOff() {
        state = State.TRANSFERRING;
        host.hold(true);
        opening.onComplete(opened -> {
            if (opened.failed()) {
                failed("the hand-off to " + next.name() + " failed: " + opened.cause().getMessage());
                return;
            }
            SquadMember member = next;
            String previous = current;
            current = member.name();
            state = State.IDLE;
            pending = null;
            next = null;
            opening = null;
            LOG.infof("call handed from %s to %s", previous, member.name());
            host.hold(false);
            host.report("system", "The call was handed to " + member.name() + ".");
            if (heldReason != null) {
                String reason = heldReason;
                heldReason = null;
                state = State.DONE;
                host.finish(reason, heldClose);
                return;
            }
            host.switchTo(member.plan(), opened.result());
        });
    }

    /** The transfer did not happen: a held end ends the call, else the model is told and tells the caller. */
    private void failed(String why) {
        LOG.warnf("call: %s", why);
        pending = null;
        next = null;
        opening = null;
        if (heldReason != null) {
            state = State.DONE;
            host.finish(heldReason, heldClose);
            return;
        }
        state = State.IDLE;
        host.hold(false);
        host.askAgain("The transfer did not happen (" + why + "). Tell the caller and carry on.");
    }
}
