package dev.voiceplane.kit.client;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;

/**
 * The peer services this one calls, one {@link PeerService} (and so one circuit breaker) per name. Each policy
 * value can be tuned per peer without a rebuild: {@code voice.peer.<name>.timeout} (a duration, default 2s),
 * {@code .retries} (2), {@code .retry-delay} (50ms), {@code .breaker-volume} (10 calls), {@code .breaker-delay} (5s).
 */
@ApplicationScoped
public class PeerServices {

    private final Config config;
    private final Map<String, PeerService> peers = new ConcurrentHashMap<>();

    public PeerServices(Config config) {
        this.config = config;
    }

    public PeerService named(String name) {
        return peers.computeIfAbsent(name, peer -> new PeerService(peer, policy(peer)));
    }

    /** The peer's REST client {@code api} under the policy of {@code name}. */
    public <A> Peer<A> client(String name, A api) {
        return new Peer<>(api, named(name));
    }

    private PeerService.Policy policy(String peer) {
        PeerService.Policy defaults = PeerService.Policy.DEFAULT;
        String prefix = "voice.peer." + peer + ".";
        return new PeerService.Policy(
                config.getOptionalValue(prefix + "timeout", Duration.class).orElse(defaults.timeout()),
                config.getOptionalValue(prefix + "retries", Integer.class).orElse(defaults.retries()),
                config.getOptionalValue(prefix + "retry-delay", Duration.class).orElse(defaults.retryDelay()),
                config.getOptionalValue(prefix + "breaker-volume", Integer.class).orElse(defaults.breakerVolume()),
                config.getOptionalValue(prefix + "breaker-delay", Duration.class).orElse(defaults.breakerDelay()));
    }
}
