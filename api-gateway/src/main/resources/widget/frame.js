/*
 * The frame of the card-tokenizer widget, served by the service. The card number exists only here: it is
 * checked as it is typed (length, Luhn, network), sent to the service with the public token, and never posted
 * to the embedding page, which learns only the card token and what may be shown of the card.
 */
(function () {
    'use strict';

    var EMBEDDING_ORIGIN = document.documentElement.getAttribute('data-origin');
    var TOKENIZE_URL = new URL('../cds/v1/tokenize/card', window.location.href).href;
    var NETWORK_NAMES = {
        visa: 'Visa', mastercard: 'Mastercard', mir: 'Mir', amex: 'American Express',
        unionpay: 'UnionPay', jcb: 'JCB', maestro: 'Maestro'
    };
    var MESSAGES = {
        incomplete: 'Enter the whole card number.',
        doesNotExist: 'Check the card number: no card has this number.',
        expired: 'This form has expired or was already used. Reload the page to try again.',
        failed: 'The card could not be linked. Try again.',
        unreachable: 'The service cannot be reached. Check the connection and try again.',
        wrongPage: 'This form cannot be used on this page.'
    };

    var form = document.getElementById('card-form');
    var input = document.getElementById('card-number');
    var network = document.getElementById('card-network');
    var error = document.getElementById('card-error');
    var submit = document.getElementById('card-submit');
    var result = document.getElementById('card-result');
    var publicToken = null;
    var finished = false;

    function post(message) {
        // the target origin makes the browser drop the message unless the parent really is that page
        window.parent.postMessage(message, EMBEDDING_ORIGIN);
    }

    function resize() {
        post({ type: 'resize', height: document.documentElement.scrollHeight });
    }

    function digitsOf(text) {
        return text.replace(/\s+/g, '');
    }

    function passesLuhn(digits) {
        var sum = 0;
        for (var i = 0; i < digits.length; i++) {
            var digit = digits.charCodeAt(digits.length - 1 - i) - 48;
            if (i % 2 === 1) {
                digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
            }
            sum += digit;
        }
        return sum % 10 === 0;
    }

    // The IIN ranges of the service's CardBrand, so the network shown is the one the card token reports.
    function networkOf(digits) {
        if (digits.length < 4) {
            return digits.charAt(0) === '4' ? 'visa' : '';
        }
        var two = Number(digits.substring(0, 2));
        var four = Number(digits.substring(0, 4));
        if (four >= 2200 && four <= 2204) return 'mir';
        if (digits.charAt(0) === '4') return 'visa';
        if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
        if (two === 34 || two === 37) return 'amex';
        if (four >= 3528 && four <= 3589) return 'jcb';
        if (two === 62) return 'unionpay';
        if (two === 50 || (two >= 56 && two <= 69)) return 'maestro';
        return '';
    }

    // The length at which a number of this network is whole, so that a typo shows before the submit.
    function wholeLength(networkName) {
        return networkName === 'amex' ? 15 : 16;
    }

    /** What is wrong with the digits, or null; the same rules as the service's. */
    function problemOf(digits) {
        if (!/^[0-9]{12,19}$/.test(digits)) {
            return { code: 'invalid_request', message: MESSAGES.incomplete };
        }
        if (!passesLuhn(digits)) {
            return { code: 'card_number_does_not_exist', message: MESSAGES.doesNotExist };
        }
        return null;
    }

    function showError(message) {
        error.textContent = message;
        input.setAttribute('aria-invalid', message ? 'true' : 'false');
        resize();
    }

    function setEnabled(enabled) {
        input.disabled = !enabled;
        submit.disabled = !enabled;
    }

    function onInput() {
        var cleaned = input.value.replace(/[^0-9 ]/g, '');
        if (cleaned !== input.value) {
            input.value = cleaned;
        }
        var digits = digitsOf(cleaned);
        var name = networkOf(digits);
        network.textContent = NETWORK_NAMES[name] || '';
        network.setAttribute('data-network', name);
        var problem = problemOf(digits);
        input.classList.toggle('complete', problem === null);
        if (problem && problem.code === 'card_number_does_not_exist' && digits.length >= wholeLength(name)) {
            showError(problem.message);
        } else if (error.textContent) {
            showError('');
        }
    }

    function fail(code, description, message, retryable) {
        showError(message);
        setEnabled(retryable);
        if (retryable) {
            input.focus();
        }
        post({ type: 'fail', error: { code: code, description: description } });
    }

    function onSubmit(event) {
        event.preventDefault();
        if (publicToken === null || finished || input.disabled) {
            return;
        }
        var digits = digitsOf(input.value);
        var problem = problemOf(digits);
        if (problem) {
            // the payer corrects a typo here; nothing was started, so the page hears nothing
            showError(problem.message);
            input.focus();
            return;
        }
        showError('');
        setEnabled(false);
        post({ type: 'start' });
        fetch(TOKENIZE_URL, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-PUBLIC-TOKEN': publicToken },
            body: JSON.stringify({ card: { number: digits } }),
            credentials: 'omit',
            cache: 'no-store'
        }).then(function (response) {
            return response.json().catch(function () {
                return null;
            });
        }).then(function (body) {
            if (body && body.status === 'ok' && body.data && typeof body.data.token === 'string') {
                finished = true;
                input.value = '';
                input.classList.remove('complete');
                network.textContent = '';
                network.setAttribute('data-network', '');
                result.textContent = body.data.info ? 'Card ' + body.data.info.masked_card_number + ' linked.' : 'Card linked.';
                resize();
                post({ type: 'success', cardToken: { token: body.data.token, info: body.data.info } });
                return;
            }
            var refusal = body && body.error ? body.error : { code: 'internal_error', description: 'Internal error' };
            // a refused token cannot be used again; any other refusal leaves the token unused
            var tokenGone = refusal.code === 'authentication_error';
            finished = tokenGone;
            fail(refusal.code, refusal.description,
                tokenGone ? MESSAGES.expired
                    : refusal.code === 'card_number_does_not_exist' ? MESSAGES.doesNotExist : MESSAGES.failed,
                !tokenGone);
        }).catch(function () {
            fail('service_unavailable', 'The service cannot be reached', MESSAGES.unreachable, true);
        });
    }

    function onMessage(event) {
        if (event.origin !== EMBEDDING_ORIGIN || event.source !== window.parent) {
            return;
        }
        var message = event.data;
        if (publicToken !== null || !message || message.type !== 'init' || typeof message.publicToken !== 'string') {
            return;
        }
        publicToken = message.publicToken;
        setEnabled(true);
        post({ type: 'ready' });
        resize();
    }

    // Chromium and Safari name the embedding page's origin; where they can, a frame declared for another page
    // refuses at once instead of waiting for messages the browser would never deliver.
    var ancestors = window.location.ancestorOrigins;
    if (window.parent === window || !EMBEDDING_ORIGIN
        || (ancestors && ancestors.length > 0 && ancestors[0] !== EMBEDDING_ORIGIN)) {
        error.textContent = MESSAGES.wrongPage;
        return;
    }
    input.addEventListener('input', onInput);
    form.addEventListener('submit', onSubmit);
    window.addEventListener('message', onMessage);
    post({ type: 'loaded' });
    resize();
})();
