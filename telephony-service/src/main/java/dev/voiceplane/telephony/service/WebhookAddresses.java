package dev.voiceplane.telephony.service;

import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The public addresses carriers are given ({@code VOICE_PUBLIC_URL} + the webhook path). A Twilio signature covers
 * the exact URL Twilio called, so verification rebuilds it from here, never from the request's Host header (a
 * TLS-terminating Ingress changes what the service sees).
 */
@Singleton
public class WebhookAddresses {

    public static final String TWILIO_INBOUND = "/twilio/inbound_call";
    public static final String TWILIO_STATUS = "/twilio/status";
    public static final String TWILIO_AMD = "/twilio/amd";
    public static final String VONAGE_ANSWER = "/vonage/answer";
    public static final String VONAGE_EVENT = "/vonage/event";

    private final String base;

    public WebhookAddresses(@ConfigProperty(name = "voice.public-url") String publicUrl) {
        this.base = publicUrl.endsWith("/") ? publicUrl.substring(0, publicUrl.length() - 1) : publicUrl;
    }

    /** The public URL of {@code path} (which starts with {@code /}), with the raw query when there is one. */
    public String of(String path, String rawQuery) {
        return base + path + (rawQuery == null || rawQuery.isEmpty() ? "" : "?" + rawQuery);
    }

    public String of(String path) {
        return of(path, null);
    }
}
