/*
 * Card-tokenizer widget of the Payment Session Service.
 *
 *   <link rel="stylesheet" href="{widget_url}/card-tokenizer.css">
 *   <div id="card-tokenizer"></div>
 *   <script src="{widget_url}/card-tokenizer.js"></script>
 *   <script>
 *     const tokenizer = new CardTokenizer(publicToken, { texts: { submitButtonLabel: 'Link the card' } });
 *     tokenizer.onTokenizationSuccess = (cardToken) => { ... cardToken.token ... };
 *     tokenizer.render();
 *   </script>
 *
 * The card number is typed into a frame served by the service, so the page never holds it. The frame and this
 * script speak only by postMessage: the frame posts to this page's origin only, and this script listens only to
 * messages whose origin is the service's and whose source is its own frame.
 */
(function () {
    'use strict';

    var script = document.currentScript;
    if (!script || !script.src) {
        throw new Error('card-tokenizer.js must be loaded by a <script src="..."> element');
    }
    // The frame sits next to this script, so the widget works from whatever host and path serve it.
    var FRAME_URL = new URL('frame', script.src);
    var SERVICE_ORIGIN = FRAME_URL.origin;
    var DEFAULT_CONTAINER_ID = 'card-tokenizer';
    var DEFAULT_TEXTS = { cardNumberLabel: 'Card number', submitButtonLabel: 'Link the card' };

    function containerFrom(candidate) {
        var container = candidate || document.getElementById(DEFAULT_CONTAINER_ID);
        if (!(container instanceof HTMLElement)) {
            throw new Error('CardTokenizer: no container; pass options.container or place an element with id "'
                + DEFAULT_CONTAINER_ID + '" on the page');
        }
        return container;
    }

    function textsFrom(given) {
        var texts = { cardNumberLabel: DEFAULT_TEXTS.cardNumberLabel, submitButtonLabel: DEFAULT_TEXTS.submitButtonLabel };
        Object.keys(texts).forEach(function (name) {
            if (given && given[name] !== undefined) {
                if (typeof given[name] !== 'string' || given[name] === '') {
                    throw new TypeError('CardTokenizer: options.texts.' + name + ' must be a non-empty string');
                }
                texts[name] = given[name];
            }
        });
        return texts;
    }

    // Only the fields of the contract reach the page's handlers, whatever else a message carries.
    function cardTokenFrom(data) {
        var cardToken = { token: data.token };
        if (data.info) {
            cardToken.info = {};
            ['card_network', 'card_type', 'masked_card_number'].forEach(function (name) {
                if (typeof data.info[name] === 'string') {
                    cardToken.info[name] = data.info[name];
                }
            });
        }
        return cardToken;
    }

    function errorFrom(data) {
        return { code: String(data.code), description: String(data.description) };
    }

    class CardTokenizer {
        constructor(publicToken, options) {
            if (typeof publicToken !== 'string' || publicToken === '') {
                throw new TypeError('CardTokenizer: publicToken must be the public token from POST /api/v1/token');
            }
            this._publicToken = publicToken;
            this._options = options || {};
            this._texts = textsFrom(this._options.texts);
            this._frame = null;
            this._listener = null;
            this.onReady = null;
            this.onTokenizationStart = null;
            this.onTokenizationSuccess = null;
            this.onTokenizationFail = null;
        }

        render(options) {
            var container = containerFrom((options && options.container) || this._options.container);
            this._remove();
            var url = new URL(FRAME_URL.href);
            url.searchParams.set('origin', window.location.origin);
            url.searchParams.set('card_number_label', this._texts.cardNumberLabel);
            url.searchParams.set('submit_button_label', this._texts.submitButtonLabel);
            var frame = document.createElement('iframe');
            frame.className = 'card-tokenizer__frame';
            frame.title = this._texts.cardNumberLabel;
            frame.src = url.href;
            container.classList.add('card-tokenizer');
            while (container.firstChild) {
                container.removeChild(container.firstChild);
            }
            container.appendChild(frame);
            this._frame = frame;
            this._listener = this._receive.bind(this);
            window.addEventListener('message', this._listener);
        }

        _receive(event) {
            var frame = this._frame;
            if (event.origin !== SERVICE_ORIGIN || !frame || event.source !== frame.contentWindow) {
                return;
            }
            var message = event.data;
            if (!message || typeof message.type !== 'string') {
                return;
            }
            switch (message.type) {
                case 'loaded':
                    // the token travels by message, not in the frame's address, which servers and proxies log
                    frame.contentWindow.postMessage({ type: 'init', publicToken: this._publicToken }, SERVICE_ORIGIN);
                    break;
                case 'resize':
                    if (typeof message.height === 'number' && message.height > 0) {
                        frame.style.height = Math.ceil(message.height) + 'px';
                    }
                    break;
                case 'ready':
                    this._call('onReady');
                    break;
                case 'start':
                    this._call('onTokenizationStart');
                    break;
                case 'success':
                    if (message.cardToken && typeof message.cardToken.token === 'string') {
                        this._call('onTokenizationSuccess', cardTokenFrom(message.cardToken));
                    }
                    break;
                case 'fail':
                    if (message.error) {
                        this._call('onTokenizationFail', errorFrom(message.error));
                    }
                    break;
            }
        }

        _call(name, argument) {
            var handler = this[name];
            if (typeof handler === 'function') {
                handler.call(this, argument);
            }
        }

        _remove() {
            if (this._listener) {
                window.removeEventListener('message', this._listener);
            }
            if (this._frame && this._frame.parentNode) {
                this._frame.parentNode.removeChild(this._frame);
            }
            this._frame = null;
            this._listener = null;
        }
    }

    window.CardTokenizer = CardTokenizer;
})();
