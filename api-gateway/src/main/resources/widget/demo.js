/* The demo page's use of the widget: every handler call is written into the page, as a partner would log it. */
(function () {
    'use strict';

    var events = document.getElementById('events');
    var container = document.getElementById('card-tokenizer');

    function record(handler, argument) {
        var entry = { handler: handler };
        if (argument !== undefined) {
            entry.argument = argument;
        }
        events.textContent += JSON.stringify(entry) + '\n';
    }

    var tokenizer = new CardTokenizer(container.getAttribute('data-public-token'));
    tokenizer.onReady = function () { record('onReady'); };
    tokenizer.onTokenizationStart = function () { record('onTokenizationStart'); };
    tokenizer.onTokenizationSuccess = function (cardToken) { record('onTokenizationSuccess', cardToken); };
    tokenizer.onTokenizationFail = function (error) { record('onTokenizationFail', error); };
    tokenizer.render();
})();
