package io.paysession.command.erasure;

import io.paysession.api.erasure.PersonalData;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * One personal JSON leaf as one string: {@code pii:v1:<key id>:<base64url(nonce | AES-256-GCM ciphertext and tag)>}.
 * The plaintext is the leaf's kind ({@code s}: a string, its UTF-8 bytes; {@code j}: a number or boolean, its JSON
 * text) so that it reads back as the same JSON type. A fresh 96-bit nonce per leaf; the key id is the associated data,
 * so a leaf cannot be moved under another key, while it can be moved within the JSON (an upcaster may rename a field
 * without reading it).
 */
public final class PersonalDataCipher {

    public static final String PREFIX = PersonalData.ENCRYPTED_PREFIX;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder UNBASE64 = Base64.getUrlDecoder();
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is not available", e);
        }
    });

    private final SecureRandom random = new SecureRandom();
    private final ObjectMapper json;

    public PersonalDataCipher(ObjectMapper json) {
        this.json = json;
    }

    /** Whether {@code leaf} is an encrypted leaf of this format. */
    public static boolean isEncrypted(JsonNode leaf) {
        return leaf.isTextual() && leaf.textValue().startsWith(PREFIX);
    }

    /** The key id an encrypted leaf names. */
    public static Optional<String> keyIdOf(String text) {
        if (!text.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int end = text.indexOf(':', PREFIX.length());
        return end < 0 ? Optional.empty() : Optional.of(text.substring(PREFIX.length(), end));
    }

    public String encrypt(String keyId, SecretKey key, JsonNode leaf) {
        byte[] content = (leaf.isTextual() ? leaf.textValue() : leaf.toString()).getBytes(StandardCharsets.UTF_8);
        byte[] plain = new byte[content.length + 1];
        plain[0] = (byte) (leaf.isTextual() ? 's' : 'j');
        System.arraycopy(content, 0, plain, 1, content.length);
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = new byte[NONCE_BYTES + cipher.getOutputSize(plain.length)];
            System.arraycopy(nonce, 0, sealed, 0, NONCE_BYTES);
            cipher.doFinal(plain, 0, plain.length, sealed, NONCE_BYTES);
            return PREFIX + keyId + ":" + BASE64.encodeToString(sealed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a personal field could not be encrypted", e);
        }
    }

    /** The leaf {@code text} (an encrypted leaf under {@code key}) stands for. Fails on a changed ciphertext. */
    public JsonNode decrypt(String text, SecretKey key) {
        String keyId = keyIdOf(text).orElseThrow(() -> new IllegalArgumentException("not an encrypted leaf"));
        byte[] sealed = UNBASE64.decode(text.substring(PREFIX.length() + keyId.length() + 1));
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            cipher.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
            byte[] plain = cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
            String content = new String(plain, 1, plain.length - 1, StandardCharsets.UTF_8);
            return plain[0] == 's' ? TextNode.valueOf(content) : json.readTree(content);
        } catch (GeneralSecurityException | JsonProcessingException e) {
            throw new IllegalStateException("a personal field under key " + keyId + " could not be decrypted", e);
        }
    }
}
