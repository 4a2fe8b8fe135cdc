package io.paysession.command.erasure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.paysession.api.erasure.PersonalData;
import io.paysession.api.recurrent.RecurrentTokenIssuedEvent;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionId;
import org.axonframework.serialization.Converter;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.SerializedType;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;

import javax.crypto.SecretKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * Axon's event serializer with personal data encrypted (issue 22, docs/erasure.md): the application's event
 * serializer (the {@code eventSerializer} bean).
 * <p>
 * Serializing an event that {@link PersonalData} says holds personal data writes the same JSON as the wrapped
 * serializer, except that every personal leaf is a string {@code pii:v1:<key id>:<ciphertext>}
 * ({@link PersonalDataCipher}) under the data key of the event's session ({@link SessionKeys}); a leaf that already is
 * the placeholder (data of an erased session copied into a new event) is written as it is. The customer references the
 * event names are linked to the session, for the erasure to find it. Reading decrypts each such leaf, or puts the
 * placeholder {@value #PLACEHOLDER} in its place when its key was erased; clear leaves (events stored before
 * encryption) are read as they are. Everything else (metadata, tokens, events without personal data) is the wrapped
 * serializer's, byte for byte.
 */
public final class PersonalDataSerializer implements Serializer {

    public static final String PLACEHOLDER = "[erased]";

    private final Serializer delegate;
    private final ObjectMapper json;
    private final SessionKeys keys;
    private final PersonalDataCipher cipher;

    /** {@code json}: an object mapper with the settings {@code delegate} writes with ({@code PaymentJson}). */
    public PersonalDataSerializer(Serializer delegate, ObjectMapper json, SessionKeys keys) {
        this.delegate = delegate;
        this.json = json;
        this.keys = keys;
        this.cipher = new PersonalDataCipher(json);
    }

    @Override
    public <T> SerializedObject<T> serialize(Object object, Class<T> expectedRepresentation) {
        Optional<SessionId> session = object == null ? Optional.empty() : sessionOf(object);
        if (session.isEmpty() || PersonalData.personalPaths(object.getClass()).isEmpty()) {
            return delegate.serialize(object, expectedRepresentation);
        }
        String project = projectOf(object);
        JsonNode tree = json.valueToTree(object);
        SessionKeys.DataKey[] key = new SessionKeys.DataKey[1];
        if (object instanceof SessionCreatedEvent) {
            // the session's key is made with its first event, which names its partner: later events do not, and the
            // erasure finds sessions by partner and customer reference
            key[0] = keys.writingKey(session.get(), project);
        }
        PersonalData.rewriteLeaves(tree, object.getClass(), leaf -> {
            if (leaf.isTextual() && PLACEHOLDER.equals(leaf.textValue())) {
                return leaf;
            }
            if (key[0] == null) {
                key[0] = keys.writingKey(session.get(), project);
            }
            return TextNode.valueOf(cipher.encrypt(key[0].keyId(), key[0].key(), leaf));
        });
        for (String reference : PersonalData.customerReferences(object)) {
            if (!PLACEHOLDER.equals(reference)) {
                keys.link(session.get(), project, reference);
            }
        }
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SimpleSerializedObject<>(getConverter().convert(bytes, byte[].class, expectedRepresentation),
                expectedRepresentation, typeForClass(object.getClass()));
    }

    @Override
    public <S, T> T deserialize(SerializedObject<S> serializedObject) {
        Class<?> type = classForType(serializedObject.getType());
        if (PersonalData.personalPaths(type).isEmpty()) {
            return delegate.deserialize(serializedObject);
        }
        byte[] bytes = getConverter().convert(serializedObject, byte[].class).getData();
        if (!PersonalData.holdsEncrypted(bytes)) {
            // stored before encryption, or nothing personal was given: nothing to decrypt
            return delegate.deserialize(new SimpleSerializedObject<>(bytes, byte[].class, serializedObject.getType()));
        }
        return delegate.deserialize(new SimpleSerializedObject<>(readable(bytes, type), JsonNode.class,
                serializedObject.getType()));
    }

    /**
     * The stored JSON {@code payload} of an event of {@code type} with its personal leaves decrypted, or the placeholder
     * where the key is erased: what the admin API's history and dead-letter listing show instead of ciphertext.
     */
    public JsonNode readable(byte[] payload, Class<?> type) {
        try {
            JsonNode tree = json.readTree(payload);
            PersonalData.rewriteLeaves(tree, type, this::readableLeaf);
            return tree;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode readableLeaf(JsonNode leaf) {
        if (!PersonalDataCipher.isEncrypted(leaf)) {
            return leaf;
        }
        String keyId = PersonalDataCipher.keyIdOf(leaf.textValue()).orElseThrow();
        Optional<SecretKey> key = keys.key(keyId);
        return key.isPresent() ? cipher.decrypt(leaf.textValue(), key.get()) : TextNode.valueOf(PLACEHOLDER);
    }

    /** The session whose key an event's personal data goes under: every event with personal data has one. */
    private static Optional<SessionId> sessionOf(Object event) {
        if (event instanceof SessionEvent sessionEvent) {
            return Optional.of(sessionEvent.sessionId());
        }
        if (event instanceof RecurrentTokenIssuedEvent issued) {
            return Optional.of(issued.sessionId());
        }
        return Optional.empty();
    }

    private static String projectOf(Object event) {
        if (event instanceof SessionCreatedEvent created) {
            return created.project();
        }
        if (event instanceof RecurrentTokenGrantedEvent granted) {
            return granted.project();
        }
        if (event instanceof RecurrentTokenIssuedEvent issued) {
            return issued.project();
        }
        return null;
    }

    @Override
    public <T> boolean canSerializeTo(Class<T> expectedRepresentation) {
        return delegate.canSerializeTo(expectedRepresentation);
    }

    @Override
    public Class classForType(SerializedType type) {
        return delegate.classForType(type);
    }

    @Override
    public SerializedType typeForClass(Class type) {
        return delegate.typeForClass(type);
    }

    @Override
    public Converter getConverter() {
        return delegate.getConverter();
    }
}
