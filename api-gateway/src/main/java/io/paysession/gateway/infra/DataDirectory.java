package io.paysession.gateway.infra;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The directory that keeps the embedded database and the secrets generated on first start
 * ({@code PAYMENTS_DATA_DIR}, default {@code ./data}). Files written here are readable by the owner only.
 */
@Component
public class DataDirectory {

    private final Path root;

    public DataDirectory(@Value("${payments.data.dir:./data}") String root) {
        this.root = Path.of(root).toAbsolutePath().normalize();
        try {
            Files.createDirectories(this.root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data directory " + this.root, e);
        }
    }

    public Path root() {
        return root;
    }

    public Path resolve(String relative) {
        return root.resolve(relative);
    }

    /** The file's text, created with {@code initial} the first time. */
    public String readOrCreate(String relative, Supplier<String> initial) {
        Path file = resolve(relative);
        try {
            Optional<String> existing = Files.exists(file)
                    ? Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim())
                    : Optional.empty();
            if (existing.isPresent() && !existing.get().isEmpty()) {
                return existing.get();
            }
            String value = initial.get();
            writeSecret(file, value);
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + file, e);
        }
    }

    public void writeSecret(Path file, String value) throws IOException {
        writeOwnerOnly(file, value);
    }

    /** Writes {@code value} and a newline to {@code file}, readable by the owner only, replacing it atomically. */
    public static void writeOwnerOnly(Path file, String value) throws IOException {
        Files.createDirectories(file.getParent());
        Path temporary = Files.createTempFile(file.getParent(), ".", ".tmp");
        try {
            Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: keep the default permissions
        }
        Files.writeString(temporary, value + "\n", StandardCharsets.UTF_8);
        Files.move(temporary, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
