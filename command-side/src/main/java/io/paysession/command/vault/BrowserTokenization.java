package io.paysession.command.vault;

import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.Optional;

/**
 * A card number typed into the card-tokenizer widget, stored for the project its public token stands for.
 * Using the token and storing the card commit together: a store that fails leaves the token unused, and a
 * token is never spent without a card token to show for it.
 */
@Component
public class BrowserTokenization {

    private final PublicTokens publicTokens;
    private final CardVault vault;
    private final TransactionTemplate transaction;

    public BrowserTokenization(PublicTokens publicTokens, CardVault vault, PlatformTransactionManager transactionManager) {
        this.publicTokens = publicTokens;
        this.vault = vault;
        this.transaction = new TransactionTemplate(transactionManager);
    }

    /** The vaulted card, or empty when the token is unknown, expired or already used (also by a racing request). */
    public Optional<VaultedCard> tokenize(String publicToken, CardNumber number) {
        return transaction.execute(status -> publicTokens.use(publicToken)
                .map(project -> vault.store(project, number, null, null)));
    }
}
