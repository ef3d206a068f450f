package dev.voiceplane.kit.auth;

import jakarta.enterprise.context.RequestScoped;

/** The organisation the current request acts for; every query is scoped by it. */
@RequestScoped
public class CallerOrganisation {

    private String orgId;

    void authenticate(String orgId) {
        this.orgId = orgId;
    }

    public String id() {
        if (orgId == null) {
            throw new IllegalStateException("no authenticated organisation on this request");
        }
        return orgId;
    }
}
