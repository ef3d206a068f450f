package dev.voiceplane.assistant.client;

import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;

/** Turns file-service's error statuses into {@link FileServiceFailure}s that the retry policy can tell apart. */
public class FileServiceResponses implements ResponseExceptionMapper<FileServiceFailure> {

    @Override
    public FileServiceFailure toThrowable(Response response) {
        int status = response.getStatus();
        return status >= 500 ? new FileServiceFailure.Transient(status) : new FileServiceFailure.Rejected(status);
    }

    @Override
    public boolean handles(int status, MultivaluedMap<String, Object> headers) {
        return status >= 300;
    }
}
