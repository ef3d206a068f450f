package dev.voiceplane.file.rest;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** {@code Content-Disposition: attachment} with the stored name, safe in a header (RFC 6266 / RFC 5987). */
final class ContentDisposition {

    private ContentDisposition() {
    }

    static String attachment(String fileName) {
        String ascii = fileName.replaceAll("[^A-Za-z0-9._ -]", "_");
        String encoded = URLEncoder.encode(fileName, StandardCharsets.UTF_8).replace("+", "%20");
        return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''" + encoded;
    }
}
