package io.paysession.command.rails.sandbox;

import io.paysession.command.rails.FpsBankDirectory;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;

/**
 * The sandbox's instant-payment directory (decisions.md section 4): its banks, and who is registered.
 * Phone {@code 79261234567} at bank {@code 100000000069} is found; any phone ending in {@code 0000} is
 * not; other phones at a known bank are found.
 */
@Component
@ConditionalOnSandboxRails
public class SandboxFpsDirectory implements FpsBankDirectory {

    private static final List<Bank> BANKS = List.of(
            new Bank("100000000069", "Sandbox Bank", "Песочный банк"),
            new Bank("100000000004", "Example Savings Bank", "Пример Сбережений"),
            new Bank("100000000008", "Test Commerce Bank", "Тестовый Коммерческий банк"),
            new Bank("100000000012", "Demo Digital Bank", "Демо Цифровой банк"),
            new Bank("100000000111", "Trial Regional Bank", "Пробный Региональный банк"));

    @Override
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
