package dev.voiceplane.kit.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SecretBoxTest {

    private static final byte[] SECRET = "sk-live-abc".getBytes(StandardCharsets.UTF_8);

    @Test
    void sealsAndOpensForTheSameContext() {
        SecretBox box = SecretBox.fromKeysetJson(SecretBox.generateKeysetJson());
        byte[] sealed = box.seal(SECRET, "credential:org-a:1");
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains("sk-live-abc"));
        assertArrayEquals(SECRET, box.open(sealed, "credential:org-a:1"));
        assertNotEquals(Arrays.toString(sealed), Arrays.toString(box.seal(SECRET, "credential:org-a:1")));
    }

    @Test
    void aCiphertextMovedToAnotherRowDoesNotOpen() {
        SecretBox box = SecretBox.fromKeysetJson(SecretBox.generateKeysetJson());
        byte[] sealed = box.seal(SECRET, "credential:org-a:1");
        assertThrows(IllegalStateException.class, () -> box.open(sealed, "credential:org-b:1"));
    }

    @Test
    void anotherKeysetCannotOpen() {
        byte[] sealed = SecretBox.fromKeysetJson(SecretBox.generateKeysetJson()).seal(SECRET, "c");
        SecretBox other = SecretBox.fromKeysetJson(SecretBox.generateKeysetJson());
        assertThrows(IllegalStateException.class, () -> other.open(sealed, "c"));
    }

    @Test
    void rotationKeepsOldCiphertextsReadableAndWritesWithTheNewPrimary() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode oldKeyset = (ObjectNode) json.readTree(SecretBox.generateKeysetJson());
        ObjectNode newKeyset = (ObjectNode) json.readTree(SecretBox.generateKeysetJson());
        byte[] writtenBefore = SecretBox.fromKeysetJson(oldKeyset.toString()).seal(SECRET, "c");

        // Rotation: the new key joins the keyset and becomes primary; the old key stays for reading.
        ObjectNode rotated = newKeyset.deepCopy();
        ((ArrayNode) rotated.get("key")).add(oldKeyset.get("key").get(0));
        SecretBox box = SecretBox.fromKeysetJson(rotated.toString());

        assertArrayEquals(SECRET, box.open(writtenBefore, "c"));
        byte[] writtenAfter = box.seal(SECRET, "c");
        // Tink prefixes each ciphertext with the id of the key that wrote it.
        assertEquals(newKeyset.get("primaryKeyId").asLong(), keyIdOf(writtenAfter));
        assertEquals(oldKeyset.get("primaryKeyId").asLong(), keyIdOf(writtenBefore));
        JsonNode ignored = rotated.get("primaryKeyId");
        assertEquals(newKeyset.get("primaryKeyId"), ignored);
    }

    @Test
    void anInvalidKeysetIsRejectedClearly() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SecretBox.fromKeysetJson("{}"));
        assertEquals("VOICE_ENCRYPTION_KEYSET is not a valid Tink JSON keyset", e.getMessage());
    }

    private static long keyIdOf(byte[] ciphertext) {
        return ((ciphertext[1] & 0xffL) << 24) | ((ciphertext[2] & 0xffL) << 16) | ((ciphertext[3] & 0xffL) << 8)
                | (ciphertext[4] & 0xffL);
    }
}
