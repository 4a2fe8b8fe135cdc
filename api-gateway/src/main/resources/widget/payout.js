/*
 * The instant-payment payout widget (/widget/payout). The public token comes in the address's fragment and is kept
 * in this tab's session storage; the payee picks their bank and gives their phone, which go to the service only
 * (POST /cds/v1/fps-payout/start); the page then follows the payout (GET /cds/v1/fps-payout/session) until it ends.
 */
(function () {
    "use strict";

    var STORE_KEY = "payments.fps-payout.token";
    var TEXTS = {
        en: {
            title: "Payout", bank: "Your bank", phone: "Your phone number", submit: "Receive the money",
            processing: "The payout is on its way.", succeeded: "The money has been sent to you.",
            failed: "The payout did not go through", noToken: "This payout link is not complete.",
            dead: "This payout link has expired.", badPhone: "Enter the phone as 10 to 15 digits."
        },
        ru: {
            title: "Выплата", bank: "Ваш банк", phone: "Ваш номер телефона", submit: "Получить деньги",
            processing: "Выплата в пути.", succeeded: "Деньги отправлены вам.",
            failed: "Выплата не прошла", noToken: "Ссылка на выплату неполная.",
            dead: "Срок ссылки на выплату истёк.", badPhone: "Укажите телефон: от 10 до 15 цифр."
        }
    };

    var form = document.getElementById("payout-form");
    var bank = document.getElementById("payout-bank");
    var phone = document.getElementById("payout-phone");
    var error = document.getElementById("payout-error");
    var status = document.getElementById("payout-status");
    var submit = document.getElementById("payout-submit");
    var texts = TEXTS.en;
    var token = null;

    function readToken() {
        var fromAddress = window.location.hash.replace(/^#/, "");
        if (/^[0-9a-f]{64}$/.test(fromAddress)) {
            window.sessionStorage.setItem(STORE_KEY, fromAddress);
            window.history.replaceState(null, "", window.location.pathname);
            return fromAddress;
        }
        var stored = window.sessionStorage.getItem(STORE_KEY);
        return stored && /^[0-9a-f]{64}$/.test(stored) ? stored : null;
    }

    function request(method, path, body) {
        var init = { method: method, headers: { "X-PUBLIC-TOKEN": token }, cache: "no-store" };
        if (body) {
            init.headers["Content-Type"] = "application/json";
            init.body = JSON.stringify(body);
        }
        return fetch(path, init).then(function (response) {
            return response.json().then(function (json) {
                return { status: response.status, body: json };
            });
        });
    }

    function applyTexts(locale) {
        texts = TEXTS[locale] || TEXTS.en;
        document.documentElement.lang = TEXTS[locale] ? locale : "en";
        document.getElementById("payout-title").textContent = texts.title;
        document.getElementById("label-bank").textContent = texts.bank;
        document.getElementById("label-phone").textContent = texts.phone;
        submit.textContent = texts.submit;
    }

    function show(state) {
        var details = state.amount_details;
        if (details) {
            document.getElementById("payout-amount").textContent = (details.amount / 100).toFixed(2) + " "
                + details.currency.toUpperCase();
        }
        form.hidden = state.state !== "form";
        status.dataset.state = state.state;
        if (state.state === "form") {
            if (bank.options.length === 0) {
                (state.banks || []).forEach(function (known) {
                    var option = document.createElement("option");
                    option.value = known.id;
                    option.textContent = known.name;
                    bank.appendChild(option);
                });
            }
            status.textContent = "";
        } else if (state.state === "processing") {
            status.textContent = texts.processing;
            window.setTimeout(poll, 500);
        } else {
            status.textContent = state.state === "succeeded" ? texts.succeeded
                : texts.failed + (state.error_code ? " (" + state.error_code + ")." : ".");
            status.dataset.errorCode = state.error_code || "";
        }
    }

    function poll() {
        request("GET", "/cds/v1/fps-payout/session").then(function (answer) {
            if (answer.status !== 200) {
                status.textContent = texts.dead;
            } else {
                show(answer.body);
            }
        }, function () {
            window.setTimeout(poll, 1000);
        });
    }

    form.addEventListener("submit", function (event) {
        event.preventDefault();
        phone.removeAttribute("aria-invalid");
        error.textContent = "";
        var digits = phone.value.replace(/[\s()-]/g, "");
        if (!/^\+?[0-9]{10,15}$/.test(digits)) {
            phone.setAttribute("aria-invalid", "true");
            error.textContent = texts.badPhone;
            return;
        }
        submit.disabled = true;
        request("POST", "/cds/v1/fps-payout/start", { phone: digits, bank_id: bank.value }).then(function (answer) {
            submit.disabled = false;
            if (answer.status === 200) {
                show(answer.body);
            } else if (answer.status === 401) {
                form.hidden = true;
                status.textContent = texts.dead;
            } else {
                error.textContent = answer.body && answer.body.error ? answer.body.error.description : texts.failed;
            }
        }, function () {
            submit.disabled = false;
            error.textContent = texts.failed + ".";
        });
    });

    // a new link opened in the same tab (only the fragment differs): start again with its token
    window.addEventListener("hashchange", function () {
        window.location.reload();
    });
    token = readToken();
    if (!token) {
        status.textContent = texts.noToken;
        return;
    }
    request("GET", "/cds/v1/fps-payout/session").then(function (answer) {
        if (answer.status !== 200) {
            status.textContent = texts.dead;
            return;
        }
        applyTexts(answer.body.locale);
        show(answer.body);
    }, function () {
        status.textContent = texts.failed + ".";
    });
}());
