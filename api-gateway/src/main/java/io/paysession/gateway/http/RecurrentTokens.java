package io.paysession.gateway.http;

import io.paysession.api.recurrent.FindRecurrentTokenQuery;
import io.paysession.api.recurrent.RecurrentTokenView;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.stereotype.Component;

import java.util.Optional;
import java.util.concurrent.CompletionException;

/** Recurrent tokens as the query side knows them. */
@Component
public class RecurrentTokens {

    private final QueryGateway queries;

    public RecurrentTokens(QueryGateway queries) {
        this.queries = queries;
    }

    public Optional<RecurrentTokenView> find(String token) {
        try {
            return queries.query(new FindRecurrentTokenQuery(token),
                    ResponseTypes.optionalInstanceOf(RecurrentTokenView.class)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }
}
