package io.paysession.api.eventstore.jdbc;

import io.paysession.api.eventstore.EventPositions;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.OptionalLong;

import static org.axonframework.common.jdbc.JdbcUtils.closeQuietly;
import static org.axonframework.common.jdbc.JdbcUtils.executeQuery;

/**
 * {@link EventPositions} on Axon's JDBC store: the global index of the event's row, found by its identifier, on the
 * connection of the transaction under way, so that a subscribing processor finds the row its own transaction has just
 * appended. The table and columns are the ones the storage engine is configured with ({@link EventSchema}).
 */
public final class JdbcEventPositions implements EventPositions {

    private final ConnectionProvider connections;
    private final String query;

    public JdbcEventPositions(ConnectionProvider connections, EventSchema schema) {
        this.connections = connections;
        this.query = "select " + schema.globalIndexColumn() + " from " + schema.domainEventTable()
                + " where " + schema.eventIdentifierColumn() + " = ?";
    }

    @Override
    public OptionalLong positionOf(EventMessage<?> event) {
        Connection connection;
        try {
            connection = connections.getConnection();
        } catch (SQLException e) {
            throw new EventStoreException("no connection to read an event's position", e);
        }
        try {
            return executeQuery(connection, c -> {
                PreparedStatement statement = c.prepareStatement(query);
                statement.setString(1, event.getIdentifier());
                return statement;
            }, rows -> rows.next() ? OptionalLong.of(rows.getLong(1)) : OptionalLong.empty(),
                    e -> new EventStoreException("could not read the position of event " + event.getIdentifier(), e));
        } finally {
            closeQuietly(connection);
        }
    }
}
