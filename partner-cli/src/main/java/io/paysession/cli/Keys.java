package io.paysession.cli;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;

/**
 * The partner's and the service's RSA keys, and the one signature scheme of the API (docs/decisions.md section 2):
 * RSA PKCS#1 v1.5 with SHA-256 over the exact body bytes, Base64 in {@code X-PARTNER-SIGN}.
 */
final class Keys {

    private static final JcaPEMKeyConverter PEM = new JcaPEMKeyConverter();

    private Keys() {
    }

    static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this Java has no RSA", e);
        }
    }

    static String pem(PrivateKey key) {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    static String pem(PublicKey key) {
        return pem("PUBLIC KEY", key.getEncoded());
    }

    private static String pem(String type, byte[] der) {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + base64 + "\n-----END " + type + "-----\n";
    }

    /** The private key in a PEM file (PKCS#8 {@code PRIVATE KEY} or PKCS#1 {@code RSA PRIVATE KEY}). */
    static PrivateKey readPrivateKey(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new CliException("no private key at " + file + ": give --key, PAYMENTS_KEY or a profile's key "
                    + "(keys generate makes one)");
        } catch (IOException e) {
            throw new CliException("cannot read the private key " + file + ": " + e.getMessage());
        }
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            Object object = parser.readObject();
            if (object instanceof PEMKeyPair pair) {
                return PEM.getPrivateKey(pair.getPrivateKeyInfo());
            }
            if (object instanceof PrivateKeyInfo info) {
                return PEM.getPrivateKey(info);
            }
        } catch (IOException | RuntimeException e) {
            // said below
        }
        throw new CliException(file + " is not an unencrypted RSA private key in PEM");
    }

    /** A public key in PEM ({@code PUBLIC KEY} or {@code RSA PUBLIC KEY}). */
    static PublicKey readPublicKey(String text, String what) {
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            Object object = parser.readObject();
            if (object instanceof SubjectPublicKeyInfo info) {
                return PEM.getPublicKey(info);
            }
            if (object instanceof PEMKeyPair pair) {
                return PEM.getPublicKey(pair.getPublicKeyInfo());
            }
        } catch (IOException | RuntimeException e) {
            // said below
        }
        throw new CliException(what + " is not an RSA public key in PEM");
    }

    /** The public half of a private key (an RSA private key in CRT form carries it). */
    static PublicKey publicOf(PrivateKey key) {
        if (!(key instanceof RSAPrivateCrtKey rsa)) {
            throw new CliException("the private key is not an RSA key with its public exponent");
        }
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(rsa.getModulus(),
                    rsa.getPublicExponent()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sign(PrivateKey key, byte[] body) {
        try {
            Signature signature = Signature.getInstance("SHA256withRSA");
            signature.initSign(key);
            signature.update(body);
            return Base64.getEncoder().encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new CliException("cannot sign with this key: " + e.getMessage());
        }
    }

    static boolean verify(PublicKey key, byte[] body, String signatureBase64) {
        byte[] signature;
        try {
            signature = Base64.getDecoder().decode(signatureBase64.trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(key);
            verifier.update(body);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
