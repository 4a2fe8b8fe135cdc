package io.paysession.api.node;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeRolesTest {

    @Test
    void allIsEveryRole() {
        assertThat(NodeRoles.parse("all")).containsExactlyInAnyOrder("api", "processes", "projections", "webhooks");
    }

    @Test
    void aListIsReadWithSpacesAndAnyCase() {
        assertThat(NodeRoles.parse(" API, Webhooks ,")).isEqualTo(Set.of("api", "webhooks"));
    }

    @Test
    void anUnknownRoleIsRefusedNamingItAndTheProperty() {
        assertThatThrownBy(() -> NodeRoles.parse("api,projection"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("payments.roles").hasMessageContaining("'projection'");
    }

    @Test
    void anEmptyListIsRefused() {
        assertThatThrownBy(() -> NodeRoles.parse(" , ")).hasMessageContaining("names no role");
    }
}
