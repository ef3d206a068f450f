/** The voice runtime: carrier media streams and web calls, and the conversation pipeline that runs each call. */
package dev.voiceplane.runtime;
