package dev.voiceplane.floor;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "things")
public class Thing {

    @Id
    public String id;

    public String name;
}
