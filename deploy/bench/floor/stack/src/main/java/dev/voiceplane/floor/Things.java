package dev.voiceplane.floor;

import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;

/**
 * One entity created and read through Hibernate ORM, one validated body: the service kit's extensions doing the
 * least a service does (the stack's floor), without the services' own code (authentication, error shape, scoping).
 */
@Path("/thing")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class Things {

    public record NewThing(@NotBlank @Size(max = 80) String name) {
    }

    public record ThingView(String id, String name) {
    }

    private final EntityManager entities;

    Things(EntityManager entities) {
        this.entities = entities;
    }

    @POST
    @Transactional
    public ThingView create(@Valid NewThing body) {
        Thing thing = new Thing();
        thing.id = UUID.randomUUID().toString();
        thing.name = body.name();
        entities.persist(thing);
        return new ThingView(thing.id, thing.name);
    }

    @GET
    @Path("{id}")
    public ThingView get(@PathParam("id") String id) {
        Thing thing = entities.find(Thing.class, id);
        if (thing == null) {
            throw new NotFoundException();
        }
        return new ThingView(thing.id, thing.name);
    }
}
