package io.paysession.gateway.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.security.KeyPair;
import java.security.PrivateKey;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;

/**
 * The service key pair that signs webhooks (RSA 2048), generated once and kept in the database, so that
 * every node sharing the database signs with the same key and a restart never changes it.
 */
@Component
public class ServiceKeyStore {

    private static final Logger log = LoggerFactory.getLogger(ServiceKeyStore.class);
    private static final String FIRST_KEY_ID = "service-key-1";

    private final String keyId;
    private final PrivateKey privateKey;
    private final String publicKeyPem;

    public ServiceKeyStore(JdbcTemplate jdbc, Clock clock) {
        List<String[]> active = loadActive(jdbc);
        if (active.isEmpty()) {
            KeyPair generated = RsaSignatures.generateKeyPair();
            // several nodes may start at once: the first insert wins, the others read it
            int inserted = jdbc.update("""
                            insert into service_key (key_id, private_key_pem, public_key_pem, active, created_at)
                            values (?, ?, ?, true, ?) on conflict do nothing""",
                    FIRST_KEY_ID, Pem.write(generated.getPrivate()), Pem.writePublic(generated),
                    Timestamp.from(clock.instant()));
            if (inserted == 1) {
                log.info("Generated the service key pair {}", FIRST_KEY_ID);
            }
            active = loadActive(jdbc);
        }
        String[] row = active.get(0);
        this.keyId = row[0];
        this.privateKey = Pem.readPrivateKey(row[1]);
        this.publicKeyPem = row[2];
    }

    private static List<String[]> loadActive(JdbcTemplate jdbc) {
        return jdbc.query("select key_id, private_key_pem, public_key_pem from service_key where active",
                (rs, i) -> new String[]{rs.getString(1), rs.getString(2), rs.getString(3)});
    }

    public String keyId() {
        return keyId;
    }

    public String publicKeyPem() {
        return publicKeyPem;
    }

    public String sign(byte[] body) {
        return RsaSignatures.sign(privateKey, body);
    }
}
