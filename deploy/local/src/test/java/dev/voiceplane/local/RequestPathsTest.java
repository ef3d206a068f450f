package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RequestPathsTest {

    @Test
    void leavesAPlainPathAsItIs() {
        for (String path : new String[] {"/credential/abc", "/credential/", "/", "//x", "/a.b/c.", "/assistant/x~y"}) {
            assertEquals(path, RequestPaths.normalise(path));
        }
    }

    @Test
    void removesDotSegmentsLikeTheServicesRouter() {
        assertEquals("/internal/credential/abc", RequestPaths.normalise("/echo/../internal/credential/abc"));
        assertEquals("/internal/credential/abc", RequestPaths.normalise("/echo/%2e%2E/internal/credential/abc"));
        assertEquals("/credential/", RequestPaths.normalise("/credential/."));
        assertEquals("/credential/abc", RequestPaths.normalise("/credential/./abc"));
        assertEquals("/", RequestPaths.normalise("/.."));
        assertEquals("/.hidden", RequestPaths.normalise("/.hidden"));
    }

    @Test
    void decodesUnreservedEscapesOnlyAndRefusesMalformedOnes() {
        assertEquals("/credential/abc", RequestPaths.normalise("/credential/%61bc"));
        assertEquals("/credential/a%2Fb", RequestPaths.normalise("/credential/a%2fb"));
        for (String malformed : new String[] {"/credential/%zz", "/credential/%", "/credential/%4"}) {
            assertThrows(IllegalArgumentException.class, () -> RequestPaths.normalise(malformed), malformed);
        }
    }
}
