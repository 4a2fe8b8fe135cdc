package io.paysession.command.rails.sandbox;

import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;

/**
 * The sandbox's instant-payment directory (decisions.md section 4): its banks, and who is registered.
 * Phone {@code 79261234567} at bank {@code 100000000069} is found; any phone ending in {@code 0000} is
 * not; other phones at a known bank are found.
 */
@Component
public class SandboxFpsDirectory {

    public record Bank(String id, String englishName, String russianName) {
    }

    private static final List<Bank> BANKS = List.of(
            new Bank("100000000069", "Sandbox Bank", "Песочный банк"),
            new Bank("100000000004", "Example Savings Bank", "Пример Сбережений"),
            new Bank("100000000008", "Test Commerce Bank", "Тестовый Коммерческий банк"),
            new Bank("100000000012", "Demo Digital Bank", "Демо Цифровой банк"),
            new Bank("100000000111", "Trial Regional Bank", "Пробный Региональный банк"));

    public List<Bank> banks() {
        return BANKS;
    }

    public Optional<Bank> bank(String id) {
        return BANKS.stream().filter(bank -> bank.id().equals(id)).findFirst();
    }

    public boolean isRegistered(String phone, String bankId) {
        return bank(bankId).isPresent() && !phone.endsWith("0000");
    }
}
