package dev.voiceplane.runtime.provider;

import java.util.Optional;

/** Where an organisation's provider credentials are read (credential-service); blocking, called off the call's context. */
public interface Credentials {

    /** The organisation's newest credential of {@code credentialProvider}; empty when it has none. */
    Optional<Credential> find(String orgId, String credentialProvider);
}
