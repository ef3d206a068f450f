package dev.voiceplane.kit.sample;

import jakarta.persistence.EntityManager;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** SQL the database refuses: a bug in a service, which must stay a 500 and never pass for an outage (503). */
@Path("/note-broken-query")
@Produces(MediaType.APPLICATION_JSON)
public class DatabaseProbeResource {

    private final EntityManager entities;

    public DatabaseProbeResource(EntityManager entities) {
        this.entities = entities;
    }

    @GET
    public List<?> brokenQuery() {
        return entities.createNativeQuery("select * from kit_test.no_such_table").getResultList();
    }
}
