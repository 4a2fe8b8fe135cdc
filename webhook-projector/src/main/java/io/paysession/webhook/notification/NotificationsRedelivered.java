package io.paysession.webhook.notification;

import java.util.Set;

/**
 * Published (as a Spring application event) after an operator made notifications of these partners pending
 * again and the change committed: a dispatcher in this process lets a probe through their open circuits now
 * rather than at the end of the open interval, and sends at once.
 */
public record NotificationsRedelivered(Set<String> projects) {

    public NotificationsRedelivered {
        projects = Set.copyOf(projects);
    }
}
