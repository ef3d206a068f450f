package dev.voiceplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The manifest and configuration of a container image archive ({@code docker save} format), read without Docker. */
record ImageArchive(List<String> tags, JsonNode config) {

    private static final int BLOCK = 512;

    static ImageArchive read(Path archive) throws IOException {
        Map<String, byte[]> small = new HashMap<>();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(archive))) {
            byte[] header = new byte[BLOCK];
            while (in.readNBytes(header, 0, BLOCK) == BLOCK && header[0] != 0) {
                String name = field(header, 0, 100);
                long size = Long.parseLong(field(header, 124, 12).trim(), 8);
                long padded = (size + BLOCK - 1) / BLOCK * BLOCK;
                if (name.endsWith(".json") && size < 1_000_000) {
                    small.put(name, in.readNBytes((int) size));
                    in.skipNBytes(padded - size);
                } else {
                    in.skipNBytes(padded);
                }
            }
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode manifest = json.readTree(small.get("manifest.json")).get(0);
        List<String> tags = new ArrayList<>();
        manifest.path("RepoTags").forEach(tag -> tags.add(tag.asText()));
        JsonNode config = json.readTree(small.get(manifest.path("Config").asText()));
        return new ImageArchive(List.copyOf(tags), config);
    }

    private static String field(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.US_ASCII);
    }
}
