package dev.voiceplane.floor;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** One route and no database: what Quarkus REST with Jackson costs on its own (the framework's floor). */
@Path("/thing")
@Produces(MediaType.APPLICATION_JSON)
public class Things {

    public record Thing(String id, String name) {
    }

    @GET
    @Path("{id}")
    public Thing get(@PathParam("id") String id) {
        return new Thing(id, "floor");
    }
}
