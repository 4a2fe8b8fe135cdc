package io.paysession.api.recurrent;

/** Answers with an {@code Optional<RecurrentTokenView>}. */
public record FindRecurrentTokenQuery(String token) {
}
