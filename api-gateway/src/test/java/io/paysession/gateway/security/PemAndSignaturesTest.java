package io.paysession.gateway.security;

import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

class PemAndSignaturesTest {

    private static final KeyPair PARTNER = RsaSignatures.generateKeyPair();
    private static final byte[] BODY = "{\"session_id\":\"ps_1\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void bothPublicKeyFormsOfPartnerToolingAreRead() throws Exception {
        RSAPublicKey key = (RSAPublicKey) PARTNER.getPublic();
        String spki = Pem.write(key);
        org.bouncycastle.asn1.pkcs.RSAPublicKey pkcs1 =
                new org.bouncycastle.asn1.pkcs.RSAPublicKey(key.getModulus(), key.getPublicExponent());
        StringWriter text = new StringWriter();
        try (PemWriter writer = new PemWriter(text)) {
            writer.writeObject(new PemObject("RSA PUBLIC KEY", pkcs1.getEncoded()));
        }

        assertThat(spki).startsWith("-----BEGIN PUBLIC KEY-----");
        assertThat(Pem.readRsaPublicKey(spki)).contains(key);
        assertThat(text.toString()).startsWith("-----BEGIN RSA PUBLIC KEY-----");
        assertThat(Pem.readRsaPublicKey(text.toString())).contains(key);
    }

    @Test
    void textThatIsNoRsaPublicKeyIsNotAKey() throws Exception {
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(256);
        assertThat(Pem.readRsaPublicKey(Pem.write(ec.generateKeyPair().getPublic()))).isEmpty();
        assertThat(Pem.readRsaPublicKey("hello")).isEmpty();
        assertThat(Pem.readRsaPublicKey("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")).isEmpty();
        assertThat(Pem.readRsaPublicKey(null)).isEmpty();
    }

    @Test
    void aSignatureVerifiesOnlyForTheExactBodyAndKey() {
        String signature = RsaSignatures.sign(PARTNER.getPrivate(), BODY);

        assertThat(RsaSignatures.verify(PARTNER.getPublic(), BODY, signature)).isTrue();
        assertThat(RsaSignatures.verify(PARTNER.getPublic(), "{\"session_id\": \"ps_1\"}".getBytes(StandardCharsets.UTF_8),
                signature)).isFalse();
        assertThat(RsaSignatures.verify(RsaSignatures.generateKeyPair().getPublic(), BODY, signature)).isFalse();
        assertThat(RsaSignatures.verify(PARTNER.getPublic(), BODY, "not base64 !")).isFalse();
        assertThat(RsaSignatures.verify(PARTNER.getPublic(), BODY, Base64.getEncoder().encodeToString(new byte[3])))
                .isFalse();
        assertThat(RsaSignatures.verify(PARTNER.getPublic(), BODY, null)).isFalse();
    }

    @Test
    void privateKeysWrittenAsPemAreReadBack() {
        String pem = Pem.write(PARTNER.getPrivate());
        String signature = RsaSignatures.sign(Pem.readPrivateKey(pem), BODY);
        assertThat(RsaSignatures.verify(PARTNER.getPublic(), BODY, signature)).isTrue();
    }
}
