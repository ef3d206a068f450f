package dev.voiceplane.kit.openapi;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * Every service's OpenAPI document says, on every operation, that any answer other than the documented success is
 * the one error shape ({@code {"message", "error", "statusCode"}}): the contract clients code against, written once
 * here instead of an {@code @APIResponse} per status on every resource method. Runs when the document is built, so
 * the stored document (merged into docs/openapi.yaml) carries it.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class ErrorAnswers implements OASFilter {

    static final String SCHEMA = "Error";
    static final String REF = "#/components/schemas/" + SCHEMA;

    @Override
    public void filterOpenAPI(OpenAPI openApi) {
        if (openApi.getPaths() == null || openApi.getPaths().getPathItems() == null) {
            return;
        }
        if (openApi.getComponents() == null) {
            openApi.setComponents(OASFactory.createComponents());
        }
        openApi.getComponents().addSchema(SCHEMA, errorShape());
        for (PathItem item : openApi.getPaths().getPathItems().values()) {
            for (Operation operation : item.getOperations().values()) {
                if (operation.getResponses() == null) {
                    operation.setResponses(OASFactory.createAPIResponses());
                }
                if (operation.getResponses().getDefaultValue() == null) {
                    operation.getResponses().setDefaultValue(OASFactory.createAPIResponse()
                            .description("Any other answer (4xx, 5xx): the error shape. `message` is a list of "
                                    + "problems for validation errors, a sentence otherwise.")
                            .content(OASFactory.createContent().addMediaType("application/json",
                                    OASFactory.createMediaType().schema(OASFactory.createSchema().ref(REF)))));
                }
            }
        }
    }

    private static Schema errorShape() {
        Schema text = OASFactory.createSchema().addType(Schema.SchemaType.STRING);
        Schema problems = OASFactory.createSchema().addType(Schema.SchemaType.ARRAY)
                .items(OASFactory.createSchema().addType(Schema.SchemaType.STRING));
        // In the wire order, so the generated document is the same on every build.
        Map<String, Schema> properties = new LinkedHashMap<>();
        properties.put("message", OASFactory.createSchema().oneOf(List.of(text, problems)));
        properties.put("error", OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                .description("The status's reason phrase, e.g. Bad Request"));
        properties.put("statusCode", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER));
        return OASFactory.createSchema()
                .addType(Schema.SchemaType.OBJECT)
                .description("The one error shape of every 4xx and 5xx answer")
                .properties(properties)
                .required(List.of("message", "error", "statusCode"));
    }
}
