package io.paysession.gateway.security;

import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Optional;

/**
 * PEM reading and writing with BouncyCastle, which reads both the {@code PUBLIC KEY} (X.509) and the
 * {@code RSA PUBLIC KEY} (PKCS#1) forms that partners' tooling produces, and PKCS#1 or PKCS#8 private keys.
 */
public final class Pem {

    private static final JcaPEMKeyConverter CONVERTER = new JcaPEMKeyConverter();

    private Pem() {
    }

    /** The RSA public key in the text, or empty when the text is not one. */
    public static Optional<RSAPublicKey> readRsaPublicKey(String pem) {
        if (pem == null || pem.isBlank()) {
            return Optional.empty();
        }
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object object = parser.readObject();
            PublicKey key = null;
            if (object instanceof SubjectPublicKeyInfo info) {
                key = CONVERTER.getPublicKey(info);
            } else if (object instanceof PEMKeyPair pair) {
                key = CONVERTER.getPublicKey(pair.getPublicKeyInfo());
            }
            return key instanceof RSAPublicKey rsa ? Optional.of(rsa) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public static PrivateKey readPrivateKey(String pem) {
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object object = parser.readObject();
            if (object instanceof PEMKeyPair pair) {
                return CONVERTER.getPrivateKey(pair.getPrivateKeyInfo());
            }
            if (object instanceof PrivateKeyInfo info) {
                return CONVERTER.getPrivateKey(info);
            }
            throw new IllegalArgumentException("not a PEM private key");
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable PEM private key", e);
        }
    }

    public static String write(Object key) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    public static String writePublic(KeyPair pair) {
        return write(pair.getPublic());
    }
}
