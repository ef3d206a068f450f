package dev.voiceplane.telephony.api;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** {@code POST /internal/phone-number/{id}/hangup}: end this carrier call of the number. */
public record HangupRequest(@NotBlank @Size(max = 100) String phoneCallProviderId) {
}
