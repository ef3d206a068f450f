/**
 * The wire records of the internal contract between telephony-service and call-service (docs/call-contracts.md):
 * one definition for both sides, so neither can drift from the other. §1 {@link InboundCallRequest} /
 * {@link InboundCallAnswer}, §2 {@link CarrierEvent} / {@link EventReceipt}, §3 {@link DialRequest} /
 * {@link DialAnswer} and {@link InlineDialRequest}, §4 {@link HangupRequest}, §5 {@link PhoneNumberConfiguration}.
 */
package dev.voiceplane.contracts.telephony;
