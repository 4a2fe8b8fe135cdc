/*
 * The acquiring widget's hosted payment form. The public token comes in the address's fragment (#<token>), which
 * no server sees; it is kept in this tab's session storage, so that the payer comes back to the payment after the
 * 3-D Secure page. The card goes to the service only (POST /cds/v1/acquiring/pay); the form then follows the payment
 * (GET /cds/v1/acquiring/session) until it ends, and sends the payer to the partner's return address when there is
 * one. Nothing here logs or keeps the card's data.
 */
(function () {
    "use strict";

    var STORE_KEY = "payments.acquiring.token";
    var TEXTS = {
        en: {
            title: "Payment", number: "Card number", expiry: "Expiry (MM/YY)", cvc: "Security code",
            recurrent: "Save the card for later payments", pay: "Pay", processing: "The payment is being processed.",
            succeeded: "Paid. Thank you!", failed: "The payment did not go through", noToken: "This payment link is not complete.",
            dead: "This payment link has expired.", badNumber: "Check the card number.", noCard: "No card has this number.",
            badExpiry: "Enter the expiry as MM/YY.", badCvc: "Enter the 3 or 4 digits on the back of the card.",
            redirecting: "Taking you to your bank's check…", returning: "Taking you back to the shop…"
        },
        ru: {
            title: "Оплата", number: "Номер карты", expiry: "Срок (ММ/ГГ)", cvc: "Код безопасности",
            recurrent: "Сохранить карту для следующих платежей", pay: "Оплатить", processing: "Платёж обрабатывается.",
            succeeded: "Оплачено. Спасибо!", failed: "Платёж не прошёл", noToken: "Ссылка на оплату неполная.",
            dead: "Срок ссылки на оплату истёк.", badNumber: "Проверьте номер карты.", noCard: "Карты с таким номером нет.",
            badExpiry: "Укажите срок в виде ММ/ГГ.", badCvc: "Укажите 3 или 4 цифры с обратной стороны карты.",
            redirecting: "Переходим к проверке в вашем банке…", returning: "Возвращаемся в магазин…"
        }
    };

    var form = document.getElementById("pay-form");
    var number = document.getElementById("card-number");
    var expiry = document.getElementById("card-expiry");
    var cvc = document.getElementById("card-cvc");
    var recurrent = document.getElementById("card-recurrent");
    var error = document.getElementById("pay-error");
    var status = document.getElementById("pay-status");
    var submit = document.getElementById("pay-submit");
    var texts = TEXTS.en;
    var token = null;
    var following = false;

    function readToken() {
        var fromAddress = window.location.hash.replace(/^#/, "");
        if (/^[0-9a-f]{64}$/.test(fromAddress)) {
            window.sessionStorage.setItem(STORE_KEY, fromAddress);
            // the token leaves the address: it is not shown, bookmarked or passed on as a referrer
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
        document.getElementById("pay-title").textContent = texts.title;
        document.getElementById("label-number").textContent = texts.number;
        document.getElementById("label-expiry").textContent = texts.expiry;
        document.getElementById("label-cvc").textContent = texts.cvc;
        document.getElementById("label-recurrent").textContent = texts.recurrent;
        submit.textContent = texts.pay;
    }

    function amountText(details) {
        var minor = details.currency === "jpy" || details.currency === "krw" ? 0 : 2;
        var value = (details.amount / Math.pow(10, minor)).toFixed(minor);
        return value + " " + details.currency.toUpperCase();
    }

    function show(state) {
        if (state.amount_details) {
            document.getElementById("pay-amount").textContent = amountText(state.amount_details);
        }
        form.hidden = state.state !== "form";
        document.getElementById("recurrent-row").hidden = !state.show_recurrent_checkbox;
        status.dataset.state = state.state;
        if (state.state === "form") {
            status.textContent = "";
            return;
        }
        if (state.state === "processing") {
            status.textContent = texts.processing;
            follow();
            return;
        }
        if (state.state === "action_required") {
            status.textContent = texts.redirecting;
            window.location.assign(state.action_url);
            return;
        }
        if (state.state === "succeeded" || state.state === "failed") {
            status.textContent = state.state === "succeeded" ? texts.succeeded
                : texts.failed + (state.error_code ? " (" + state.error_code + ")." : ".");
            status.dataset.errorCode = state.error_code || "";
            if (state.return_url) {
                status.textContent += " " + texts.returning;
                window.setTimeout(function () { window.location.assign(state.return_url); }, 800);
            }
        }
    }

    function follow() {
        if (following) {
            return;
        }
        following = true;
        window.setTimeout(function poll() {
            request("GET", "/cds/v1/acquiring/session").then(function (answer) {
                if (answer.status !== 200) {
                    status.textContent = texts.dead;
                    return;
                }
                if (answer.body.state === "processing") {
                    window.setTimeout(poll, 500);
                } else {
                    following = false;
                    show(answer.body);
                }
            }, function () {
                window.setTimeout(poll, 1000);
            });
        }, 500);
    }

    function digits(text) {
        return text.replace(/[\s-]/g, "");
    }

    function luhn(text) {
        var sum = 0;
        for (var i = 0; i < text.length; i++) {
            var digit = text.charCodeAt(text.length - 1 - i) - 48;
            if (i % 2 === 1) {
                digit *= 2;
                if (digit > 9) {
                    digit -= 9;
                }
            }
            sum += digit;
        }
        return sum % 10 === 0;
    }

    function invalid(field, message) {
        field.setAttribute("aria-invalid", "true");
        error.textContent = message;
        field.focus();
        return false;
    }

    function valid() {
        [number, expiry, cvc].forEach(function (field) { field.removeAttribute("aria-invalid"); });
        error.textContent = "";
        var cardDigits = digits(number.value);
        if (!/^[0-9]{12,19}$/.test(cardDigits)) {
            return invalid(number, texts.badNumber);
        }
        if (!luhn(cardDigits)) {
            return invalid(number, texts.noCard);
        }
        if (!/^(0[1-9]|1[0-2])\/[0-9]{2}$/.test(expiry.value.trim())) {
            return invalid(expiry, texts.badExpiry);
        }
        if (!/^[0-9]{3,4}$/.test(cvc.value)) {
            return invalid(cvc, texts.badCvc);
        }
        return true;
    }

    form.addEventListener("submit", function (event) {
        event.preventDefault();
        if (!valid()) {
            return;
        }
        var parts = expiry.value.trim().split("/");
        var body = {
            card: {
                number: digits(number.value), expiration_month: parts[0], expiration_year: parts[1],
                security_code: cvc.value
            },
            recurrent: recurrent.checked
        };
        submit.disabled = true;
        request("POST", "/cds/v1/acquiring/pay", body).then(function (answer) {
            // the card's data leaves the page whatever the answer
            number.value = "";
            cvc.value = "";
            submit.disabled = false;
            if (answer.status === 200) {
                show(answer.body);
            } else if (answer.body && answer.body.error && answer.body.error.code === "card_number_does_not_exist") {
                invalid(number, texts.noCard);
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
    request("GET", "/cds/v1/acquiring/session").then(function (answer) {
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
