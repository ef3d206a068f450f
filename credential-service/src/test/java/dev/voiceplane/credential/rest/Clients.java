package dev.voiceplane.credential.rest;

/** Request bodies the credential tests share (the requests themselves: the kit's TestClients). */
final class Clients {

    private Clients() {
    }

    static String openai(String apiKey) {
        return "{\"provider\":\"openai\",\"apiKey\":\"" + apiKey + "\"}";
    }
}
