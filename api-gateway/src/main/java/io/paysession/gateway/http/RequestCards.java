package io.paysession.gateway.http;

import io.paysession.command.vault.SealedCard;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

import java.util.ArrayList;
import java.util.List;

/**
 * The cards the current request brought, sealed for the vault but not stored: its command stores them in its
 * own transaction ({@code CardsVaultedWithCommands}), so that a request the session refuses vaults nothing.
 */
final class RequestCards {

    private static final String ATTRIBUTE = RequestCards.class.getName();

    private RequestCards() {
    }

    static void add(SealedCard card) {
        RequestAttributes attributes = RequestContextHolder.currentRequestAttributes();
        @SuppressWarnings("unchecked")
        List<SealedCard> cards = (List<SealedCard>) attributes.getAttribute(ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        if (cards == null) {
            cards = new ArrayList<>();
            attributes.setAttribute(ATTRIBUTE, cards, RequestAttributes.SCOPE_REQUEST);
        }
        cards.add(card);
    }

    /** The cards of the request, handed over once; none outside a request. */
    static List<SealedCard> take() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (attributes == null) {
            return List.of();
        }
        @SuppressWarnings("unchecked")
        List<SealedCard> cards = (List<SealedCard>) attributes.getAttribute(ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        attributes.removeAttribute(ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        return cards == null ? List.of() : List.copyOf(cards);
    }
}
