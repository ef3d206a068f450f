package dev.voiceplane.kit.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.sample.InternalNoteResource;
import dev.voiceplane.kit.sample.NoteResource;
import org.junit.jupiter.api.Test;

/** A route is internal by its path or by the resource that serves it, whichever says so. */
class InternalRouteTest {

    @Test
    void internalByPathOrByResource() {
        assertTrue(Authentication.isInternal("/internal/note/1", NoteResource.class));
        assertTrue(Authentication.isInternal("/note/1", InternalNoteResource.class));
        assertFalse(Authentication.isInternal("/note/1", NoteResource.class));
        assertFalse(Authentication.isInternal("/internals/1", NoteResource.class));
        assertFalse(Authentication.isInternal("/note", null));
    }
}
