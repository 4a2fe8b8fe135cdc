package io.paysession.command.rails;

import java.util.List;

/**
 * The banks of the instant-payment system ({@code GET /api/v1/fps/banks}): part of the instant-payment
 * rail, so its adapter provides them (the sandbox its test directory, a real adapter the system's list).
 */
public interface FpsBankDirectory {

    record Bank(String id, String englishName, String russianName) {
    }

    List<Bank> banks();
}
