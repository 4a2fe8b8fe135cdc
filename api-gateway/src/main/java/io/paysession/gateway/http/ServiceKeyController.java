package io.paysession.gateway.http;

import io.paysession.gateway.security.ServiceKeyStore;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The public key that verifies webhooks, as PEM, without authentication. */
@RestController
public class ServiceKeyController {

    private final ServiceKeyStore keys;

    public ServiceKeyController(ServiceKeyStore keys) {
        this.keys = keys;
    }

    @GetMapping(value = "/service/public-key")
    public ResponseEntity<String> publicKey() {
        return ResponseEntity.ok().contentType(new MediaType("application", "x-pem-file"))
                .header("X-Service-Key-Id", keys.keyId())
                .body(keys.publicKeyPem());
    }
}
